import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { httpGatewayForFile, serveOverHttp, type ServedOverHttp } from "./fixtures.js";

// What flows both ways through the gateway, with server-everything (over stdio) behind it and the
// SDK 1.x Client in front: progress and cancellation down to up, elicitation and sampling up to
// down (or refused when the client did not declare them), roots from the client up.
const running = httpGatewayForFile({ upstreams: ["everything", "memory"] });

async function connect(capabilities: ConstructorParameters<typeof Client>[1] = {}): Promise<Client> {
  const client = new Client({ name: "forwarding-test", version: "1" }, capabilities);
  await client.connect(new StreamableHTTPClientTransport(new URL(running.http.url)));
  return client;
}

/** Polls `check` until it holds, for at most `ms` (the roots reach the upstream asynchronously). */
async function eventually(check: () => Promise<boolean>, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

describe("forwarding", () => {
  it("passes the upstream's progress notifications to the client's progress token", async () => {
    const client = await connect();
    try {
      const seen: Progress[] = [];
      const result = await client.callTool(
        { name: "everything__trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
        undefined,
        { onprogress: (progress) => seen.push(progress) },
      );
      expect(result.isError).not.toBe(true);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.at(-1)?.total).toBe(3);
    } finally {
      await client.close();
    }
  });

  it("cancels the upstream call when the client cancels, and goes on", async () => {
    const client = await connect();
    try {
      const controller = new AbortController();
      const call = client.callTool(
        { name: "everything__trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
        undefined,
        { signal: controller.signal },
      );
      setTimeout(() => controller.abort(new Error("the user stopped it")), 300);
      await expect(call).rejects.toThrow(/stopped it|abort/i);
      const echo = await client.callTool({ name: "everything__echo", arguments: { message: "after cancel" } });
      expect(JSON.stringify(echo.content)).toContain("after cancel");
    } finally {
      await client.close();
    }
  });

  it("asks the client when the upstream elicits, when the client declared elicitation", async () => {
    const client = await connect({ capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return {
        action: "accept",
        content: {
          name: "Ada Lovelace",
          check: true,
          email: "ada@example.com",
          integer: 3,
          number: 1.5,
          enums: "option1",
        },
      };
    });
    try {
      const result = await client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} });
      expect(asked).toHaveLength(1);
      expect(JSON.stringify(result.content)).toContain("Ada Lovelace");
    } finally {
      await client.close();
    }
  });

  it("refuses the upstream's elicitation clearly when the client did not declare it", async () => {
    const client = await connect();
    try {
      const result = await client.callTool({ name: "everything__trigger-elicitation-request", arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/did not declare the elicitation capability/);
    } finally {
      await client.close();
    }
  });

  it("passes the upstream's sampling request to the client", async () => {
    const client = await connect({ capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: "sampled by the downstream client" },
    }));
    try {
      const result = await client.callTool({
        name: "everything__trigger-sampling-request",
        arguments: { prompt: "hi" },
      });
      expect(JSON.stringify(result.content)).toContain("sampled by the downstream client");
    } finally {
      await client.close();
    }
  });

  it("passes the client's roots up to the upstream servers", { timeout: 40_000 }, async () => {
    const client = await connect({ capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: [{ uri: "file:///srv/project-from-client", name: "client root" }],
    }));
    try {
      const seen = await eventually(async () => {
        const result = await client.callTool({ name: "everything__get-roots-list", arguments: {} });
        return JSON.stringify(result.content).includes("file:///srv/project-from-client");
      });
      expect(seen).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe("approval in front of tools that may write", () => {
  let approving: ServedOverHttp;
  let refusing: ServedOverHttp;

  beforeAll(async () => {
    const memory = { memory: running.upstreams.servers.memory! };
    [approving, refusing] = await Promise.all([
      serveOverHttp({ servers: memory, approval: { mode: "elicit" } }),
      serveOverHttp({ servers: memory, approval: { mode: "refuse" } }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await approving.close();
    await refusing.close();
  }, 60_000);

  const entity = { entities: [{ name: "approved-thing", entityType: "thing", observations: [] }] };

  it("asks the client's user through elicitation and calls only when accepted", async () => {
    const client = new Client({ name: "approver", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    let answer: "accept" | "decline" = "decline";
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: answer };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(approving.http.url)));
    try {
      const declined = await client.callTool({ name: "create_entities", arguments: entity });
      expect(declined.isError).toBe(true);
      expect(JSON.stringify(declined.content)).toMatch(/did not approve/);
      answer = "accept";
      const accepted = await client.callTool({ name: "create_entities", arguments: entity });
      expect(accepted.isError).not.toBe(true);
      expect(asked[0]).toMatch(/create_entities/);
      // A read-only tool is not asked about (the second time from the remembered decision).
      await client.callTool({ name: "read_graph", arguments: {} });
      await client.callTool({ name: "read_graph", arguments: {} });
      expect(asked).toHaveLength(2);
      // A writing tool is asked about on every call, however often the policy was consulted.
      const again = await client.callTool({ name: "create_entities", arguments: entity });
      expect(again.isError).not.toBe(true);
      expect(asked).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  it("refuses a writing tool for a client without elicitation, saying why", async () => {
    const client = new Client({ name: "no-elicitation", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(approving.http.url)));
    try {
      const result = await client.callTool({ name: "create_entities", arguments: entity });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/did not declare elicitation/);
    } finally {
      await client.close();
    }
  });

  it("refuses writing tools outright when the config says so", async () => {
    const client = new Client({ name: "refused", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(refusing.http.url)));
    try {
      const result = await client.callTool({ name: "create_entities", arguments: entity });
      expect(JSON.stringify(result.content)).toMatch(/refused/);
      const read = await client.callTool({ name: "read_graph", arguments: {} });
      expect(read.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  });
});
