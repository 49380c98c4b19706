import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPConfigFileError, MCPServerSet, parseConfig } from "../src/index.js";

// A modern-only SDK v2 server (in this process) named by a config file, with the 2026 engine.
let server: V2HttpServer;

beforeAll(async () => {
  server = await startV2HttpServer({ modernOnly: true });
});
afterAll(async () => {
  await server.close();
});

describe("protocol in a config file", () => {
  it('a server entry\'s "protocol" reaches the adapter, and MCPServerSet takes an engine', async () => {
    const { servers } = await parseConfig(
      JSON.stringify({ mcpServers: { docs: { type: "http", url: server.url, protocol: "2026-07-28" } } }),
      { file: "mcp.json" },
    );
    expect(servers.docs).toMatchObject({ transport: "streamable-http", protocol: "2026-07-28" });
    const set = new MCPServerSet(servers, { engine: createEngine2026() });
    try {
      const report = await set.connect();
      expect(report.connected).toEqual(["docs"]);
      expect(
        set.registry
          .list()
          .map((tool) => tool.name)
          .sort(),
      ).toEqual(["docs/ask", "docs/echo", "docs/fail", "docs/slow"]);
    } finally {
      await set.close();
    }
  });

  it("a protocol the adapter does not know is an issue on that field", async () => {
    const error = await (async () => {
      try {
        await parseConfig(JSON.stringify({ mcpServers: { docs: { url: server.url, protocol: "2027" } } }), {
          file: "mcp.json",
        });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(MCPConfigFileError.isInstance(error)).toBe(true);
    expect((error as MCPConfigFileError).issues).toContainEqual({
      server: "docs",
      field: "protocol",
      message: 'protocol must be "auto", "2025" or "2026-07-28", got "2027"',
    });
  });
});
