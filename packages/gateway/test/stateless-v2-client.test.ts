import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Transport2025 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { httpGatewayForFile } from "./fixtures.js";

// The official v2 client (`@modelcontextprotocol/client` 2.x) pinned to 2026-07-28 through the
// gateway's stateless mode, in front of server-everything, -memory and -filesystem over real stdio
// pipes; and a 2025 client on the same endpoint, which still gets a session.
const running = httpGatewayForFile();

async function modernClient(): Promise<Client> {
  const client = new Client(
    { name: "v2-modern", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(running.http.url)));
  return client;
}

describe("the v2 client on 2026-07-28", () => {
  let client: Client;
  beforeAll(async () => {
    client = await modernClient();
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it("connects on the 2026-07-28 revision with no session", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(running.gateway.connectionCount).toBe(0);
  });

  it("lists every upstream's tools and calls tools of each", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["everything__echo", "memory__read_graph", "filesystem__list_directory"]),
    );
    const echo = await client.callTool({ name: "everything__echo", arguments: { message: "stateless hello" } });
    expect(JSON.stringify(echo.content)).toContain("stateless hello");
    const listing = await client.callTool({
      name: "filesystem__list_directory",
      arguments: { path: running.upstreams.directory.path },
    });
    expect(listing.isError).not.toBe(true);
    expect(JSON.stringify(listing.content)).toContain("hello.txt");
    await client.callTool({
      name: "memory__create_entities",
      arguments: { entities: [{ name: "stateless", entityType: "thing", observations: ["2026"] }] },
    });
    const graph = await client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(JSON.stringify(graph.content)).toContain("stateless");
    expect(running.gateway.connectionCount).toBe(0);
  });

  it("passes progress of an upstream call to the client", async () => {
    const steps: number[] = [];
    const result = await client.callTool(
      { name: "everything__trigger-long-running-operation", arguments: { duration: 1, steps: 3 } },
      { onprogress: (progress) => steps.push(progress.progress) },
    );
    expect(result.isError).not.toBe(true);
    expect(steps.length).toBeGreaterThanOrEqual(2);
  });

  it("serves resources, templates and prompts", async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0];
    const read = await client.readResource({ uri: first?.uri ?? "" });
    expect(read.contents[0]?.uri).toBe(first?.uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);
    const { prompts } = await client.listPrompts();
    const simple = prompts.find((prompt) => prompt.name.endsWith("simple-prompt"));
    expect(simple).toBeDefined();
    const prompt = await client.getPrompt({ name: simple?.name ?? "" });
    expect(prompt.messages.length).toBeGreaterThan(0);
  });

  it("answers an unknown tool with a JSON-RPC invalid-params error", async () => {
    await expect(client.callTool({ name: "nope__nothing", arguments: {} })).rejects.toThrow(
      /Unknown tool "nope__nothing"/,
    );
  });
});

describe("both eras on one endpoint", () => {
  it("gives a 2025 client a session next to the stateless 2026-07-28 traffic", async () => {
    const legacy = new Client2025({ name: "sdk-2025", version: "1.0.0" });
    await legacy.connect(new Transport2025(new URL(running.http.url)));
    try {
      expect(running.gateway.connectionCount).toBe(1);
      const modern = await modernClient();
      try {
        const [old, now] = await Promise.all([
          legacy.callTool({ name: "everything__echo", arguments: { message: "from 2025" } }),
          modern.callTool({ name: "everything__echo", arguments: { message: "from 2026" } }),
        ]);
        expect(JSON.stringify(old.content)).toContain("from 2025");
        expect(JSON.stringify(now.content)).toContain("from 2026");
      } finally {
        await modern.close();
      }
    } finally {
      await legacy.close();
    }
  });
});

describe("our adapter on engine-2026 (2026-07-28)", () => {
  it("lists and calls tools of every upstream through the gateway", { timeout: 60_000 }, async () => {
    const adapter = new MCPToolAdapter(
      { name: "gateway", transport: "streamable-http", url: running.http.url, protocol: "2026-07-28" },
      { engine: createEngine2026() },
    );
    const sessionsBefore = running.gateway.connectionCount;
    await adapter.connect();
    try {
      expect(adapter.protocolEra).toBe("2026-07-28");
      const names = (await adapter.discoverTools()).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(["everything__echo", "memory__read_graph", "filesystem__read_text_file"]),
      );
      const echo = await adapter.invoke("everything__echo", { message: "adapter on 2026" });
      expect(echo.success, echo.error ?? "").toBe(true);
      expect(JSON.stringify(echo.data)).toContain("adapter on 2026");
      const file = await adapter.invoke("filesystem__read_text_file", {
        path: `${running.upstreams.directory.path}/hello.txt`,
      });
      expect(JSON.stringify(file.data)).toContain("hello from the filesystem server");
      const graph = await adapter.invoke("memory__read_graph", {});
      expect(graph.success, graph.error ?? "").toBe(true);
      // No session was opened for it.
      expect(running.gateway.connectionCount).toBe(sessionsBefore);
    } finally {
      await adapter.disconnect();
    }
  });
});
