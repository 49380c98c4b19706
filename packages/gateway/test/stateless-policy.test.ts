import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { realUpstreams, serveOverHttp, type ServedOverHttp, type Upstreams } from "./fixtures.js";

// The gateway's policy and the upstreams' own events for 2026-07-28 clients, which keep no
// session: approval asked through an `input_required` result (the client's answer comes back in
// the retried call), an upstream's elicitation refused with the reason, and an upstream's list
// change reaching a client's `subscriptions/listen` stream.

async function modernClient(
  url: string,
  elicitation?: (message: string) => "accept" | "decline",
): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: "v2-policy", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      ...(elicitation === undefined ? {} : { capabilities: { elicitation: { form: {} } } }),
    },
  );
  if (elicitation !== undefined) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      return { action: elicitation(request.params.message), content: {} };
    });
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, asked };
}

describe("approval and upstream questions on 2026-07-28", () => {
  let upstreams: Upstreams;
  let approving: ServedOverHttp | undefined;
  let plain: ServedOverHttp | undefined;

  beforeAll(async () => {
    upstreams = await realUpstreams(["everything", "memory"]);
    approving = await serveOverHttp({ servers: { memory: upstreams.servers.memory! }, approval: { mode: "elicit" } });
    plain = await serveOverHttp({ servers: { everything: upstreams.servers.everything! } });
  }, 120_000);

  afterAll(async () => {
    await approving?.close();
    await plain?.close();
    await upstreams.remove();
  }, 60_000);

  it(
    "asks for approval in an input_required result and calls only when the user accepts",
    { timeout: 60_000 },
    async () => {
      const { client, asked } = await modernClient(approving?.http.url ?? "", () => "accept");
      try {
        const created = await client.callTool({
          name: "create_entities",
          arguments: { entities: [{ name: "approved", entityType: "thing", observations: ["2026"] }] },
        });
        expect(created.isError).not.toBe(true);
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatch(/Allow the tool "create_entities"/);
        // Read-only: no question.
        const graph = await client.callTool({ name: "read_graph", arguments: {} });
        expect(JSON.stringify(graph.content)).toContain("approved");
        expect(asked).toHaveLength(1);
      } finally {
        await client.close();
      }
    },
  );

  it(
    "does not call when the user declines, and refuses a client without elicitation, saying why",
    { timeout: 60_000 },
    async () => {
      const declining = await modernClient(approving?.http.url ?? "", () => "decline");
      const silent = await modernClient(approving?.http.url ?? "");
      try {
        const declined = await declining.client.callTool({
          name: "create_entities",
          arguments: { entities: [{ name: "declined", entityType: "thing", observations: [] }] },
        });
        expect(declined.isError).toBe(true);
        expect(JSON.stringify(declined.content)).toMatch(/did not approve/);
        const refused = await silent.client.callTool({
          name: "create_entities",
          arguments: { entities: [{ name: "unasked", entityType: "thing", observations: [] }] },
        });
        expect(refused.isError).toBe(true);
        expect(JSON.stringify(refused.content)).toMatch(/did not declare elicitation/);
        const graph = await silent.client.callTool({ name: "read_graph", arguments: {} });
        expect(JSON.stringify(graph.content)).not.toMatch(/declined|unasked/);
      } finally {
        await declining.client.close();
        await silent.client.close();
      }
    },
  );

  it(
    "passes an upstream's elicitation during a 2026-07-28 call to the client, whose answer goes up",
    { timeout: 60_000 },
    async () => {
      const { client, asked } = await modernClient(plain?.http.url ?? "", () => "decline");
      try {
        const result = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
        expect(asked).toEqual([expect.stringMatching(/Please provide inputs/)]);
        expect(JSON.stringify(result.content)).toMatch(/decline/i);
      } finally {
        await client.close();
      }
    },
  );
});

describe("an upstream's list change on 2026-07-28", () => {
  let upstream: V2HttpServer;
  let served: ServedOverHttp | undefined;

  beforeAll(async () => {
    upstream = await startV2HttpServer({ modernOnly: true });
    served = await serveOverHttp({
      servers: { v2: { transport: "streamable-http", url: upstream.url, protocol: "2026-07-28" } },
      serverSet: { engine: createEngine2026() },
    });
  }, 60_000);

  afterAll(async () => {
    await served?.close();
    await upstream.close();
  }, 30_000);

  it("reaches a 2026-07-28 client's listen stream, and the next listing shows it", { timeout: 60_000 }, async () => {
    const adapter = new MCPToolAdapter(
      { name: "gateway", transport: "streamable-http", url: served?.http.url ?? "", protocol: "2026-07-28" },
      { engine: createEngine2026() },
    );
    await adapter.connect();
    try {
      expect((await adapter.discoverTools()).map((tool) => tool.name)).not.toContain("fresh_tool");
      const changed = new Promise<void>((resolve) => {
        adapter.onToolsChanged(() => resolve());
      });
      upstream.addTool("fresh_tool");
      await changed;
      expect((await adapter.discoverTools()).map((tool) => tool.name)).toContain("fresh_tool");
      const result = await adapter.invoke("fresh_tool", {});
      expect(JSON.stringify(result.data)).toContain("fresh_tool: ok");
    } finally {
      await adapter.disconnect();
    }
  });
});
