import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CLI_BIN, GATEWAY_DIR, httpGatewayForFile } from "./fixtures.js";

// The SDK 1.x Client (no one here wrote it) through the gateway, in front of server-everything,
// server-memory and server-filesystem over real stdio pipes: over HTTP to a gateway in this
// process, and over stdio to `mcp-tool-adapter serve` as a host starts it.
const running = httpGatewayForFile();

const transports: { label: string; make: () => Transport }[] = [
  { label: "streamable HTTP", make: () => new StreamableHTTPClientTransport(new URL(running.http.url)) },
  {
    label: "stdio (mcp-tool-adapter serve)",
    make: () =>
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_BIN, "serve", "--config", running.upstreams.configFile],
        cwd: GATEWAY_DIR,
        stderr: "pipe",
      }),
  },
];

describe.each(transports)("SDK 1.x Client over $label", ({ make }) => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: "sdk-test-client", version: "1.0.0" });
    await client.connect(make());
  }, 120_000);

  afterAll(async () => {
    await client.close();
  }, 30_000);

  it("lists every upstream's tools under the bridges' model-safe names", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["everything__echo", "memory__read_graph", "filesystem__list_directory"]),
    );
    expect(names.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    const echo = tools.find((tool) => tool.name === "everything__echo");
    expect(echo?.inputSchema.type).toBe("object");
    expect(Object.keys(echo?.inputSchema.properties ?? {})).toContain("message");
  });

  it("calls tools of different upstreams", async () => {
    const echo = await client.callTool({ name: "everything__echo", arguments: { message: "through the gateway" } });
    expect(JSON.stringify(echo.content)).toContain("through the gateway");
    const listing = await client.callTool({
      name: "filesystem__list_directory",
      arguments: { path: running.upstreams.directory.path },
    });
    expect(listing.isError).not.toBe(true);
    expect(JSON.stringify(listing.content)).toContain("hello.txt");
    await client.callTool({
      name: "memory__create_entities",
      arguments: { entities: [{ name: "gateway", entityType: "thing", observations: ["serves"] }] },
    });
    const graph = await client.callTool({ name: "memory__read_graph", arguments: {} });
    expect(JSON.stringify(graph)).toContain("gateway");
  });

  it("passes an upstream's tool error through as an error result", async () => {
    const sum = await client.callTool({ name: "everything__get-sum", arguments: { a: "two", b: 3 } });
    expect(sum.isError).toBe(true);
  });

  it("refuses an unknown tool with a protocol error naming it", async () => {
    await expect(client.callTool({ name: "nowhere__nothing", arguments: {} })).rejects.toThrow(
      /Unknown tool "nowhere__nothing"/,
    );
  });

  it("lists prompts namespaced and gets one", async () => {
    const { prompts } = await client.listPrompts();
    const simple = prompts.find(
      (prompt) => prompt.name.startsWith("everything__") && (prompt.arguments ?? []).length === 0,
    );
    expect(simple).toBeDefined();
    const got = await client.getPrompt({ name: simple?.name ?? "" });
    expect(got.messages.length).toBeGreaterThan(0);
  });

  it("lists resources and templates and reads a resource from its upstream", async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);
    const first = resources[0];
    const read = await client.readResource({ uri: first?.uri ?? "" });
    expect(read.contents[0]?.uri).toBe(first?.uri);
  });
});
