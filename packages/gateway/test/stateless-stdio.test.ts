import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI_BIN, GATEWAY_DIR, realUpstreams, type Upstreams } from "./fixtures.js";
import { SERVE_CONNECT_TIMEOUT_MS } from "./gateway-endpoints.js";

// `mcp-tool-adapter serve` over stdio, started by a 2026-07-28 client as a host would: the era is
// chosen by what the client sends first, so the same line in a host's config serves both eras.
let upstreams: Upstreams;

beforeAll(async () => {
  upstreams = await realUpstreams(["everything", "filesystem"]);
}, 120_000);

afterAll(async () => {
  await upstreams.remove();
}, 60_000);

const serveArgs = (): string[] => [CLI_BIN, "serve", "--config", upstreams.configFile];

describe("the v2 client pinned to 2026-07-28 over stdio", () => {
  it("opens in the 2026-07-28 era, lists and calls tools of every upstream", { timeout: 120_000 }, async () => {
    const client = new Client(
      { name: "v2-modern-stdio", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: serveArgs(), cwd: GATEWAY_DIR, stderr: "ignore" }),
    );
    try {
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["everything__echo", "filesystem__list_directory"]),
      );
      const echo = await client.callTool({ name: "everything__echo", arguments: { message: "stdio 2026" } });
      expect(JSON.stringify(echo.content)).toContain("stdio 2026");
      const listing = await client.callTool({
        name: "filesystem__list_directory",
        arguments: { path: upstreams.directory.path },
      });
      expect(JSON.stringify(listing.content)).toContain("hello.txt");
      await expect(client.callTool({ name: "nope__nothing", arguments: {} })).rejects.toThrow(
        /Unknown tool "nope__nothing"/,
      );
    } finally {
      await client.close();
    }
  });

  it("still gives a 2025 client of the same command a session", { timeout: 120_000 }, async () => {
    const client = new Client(
      { name: "v2-legacy-stdio", version: "1.0.0" },
      { capabilities: {}, versionNegotiation: { mode: "legacy" } },
    );
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: serveArgs(), cwd: GATEWAY_DIR, stderr: "ignore" }),
    );
    try {
      expect(client.getProtocolEra()).toBe("legacy");
      const echo = await client.callTool({ name: "everything__echo", arguments: { message: "stdio 2025" } });
      expect(JSON.stringify(echo.content)).toContain("stdio 2025");
    } finally {
      await client.close();
    }
  });
});

describe("our adapter on engine-2026 over stdio", () => {
  it("lists and calls through `serve` on 2026-07-28", { timeout: 120_000 }, async () => {
    const adapter = new MCPToolAdapter(
      {
        name: "gateway",
        transport: "stdio",
        command: process.execPath,
        args: serveArgs(),
        cwd: GATEWAY_DIR,
        protocol: "2026-07-28",
      },
      // The serve process's start-up at CI load, as in every other 2026-07-28 test (gateway-endpoints.ts).
      { engine: createEngine2026(), connectTimeoutMs: SERVE_CONNECT_TIMEOUT_MS },
    );
    await adapter.connect();
    try {
      expect(adapter.protocolEra).toBe("2026-07-28");
      const names = (await adapter.discoverTools()).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["everything__echo", "filesystem__read_text_file"]));
      const file = await adapter.invoke("filesystem__read_text_file", {
        path: `${upstreams.directory.path}/hello.txt`,
      });
      expect(file.success, file.error ?? "").toBe(true);
      expect(JSON.stringify(file.data)).toContain("hello from the filesystem server");
    } finally {
      await adapter.disconnect();
    }
  });
});
