import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPConfigFileError, MCPServerSet, parseConfig } from "../src/index.js";
import { runCliCaptured } from "./fixtures/run-cli-captured.js";

// A modern-only SDK v2 server (in this process) named by a config file, with the 2026 engine; and a
// dual-era one for the CLI's era column.
let server: V2HttpServer;
let dual: V2HttpServer;

beforeAll(async () => {
  [server, dual] = await Promise.all([startV2HttpServer({ modernOnly: true }), startV2HttpServer()]);
});
afterAll(async () => {
  await Promise.all([server.close(), dual.close()]);
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
      ).toEqual(["docs/ask", "docs/echo", "docs/fail", "docs/roots", "docs/route", "docs/sample", "docs/slow"]);
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

describe("CLI check shows each server's era", () => {
  it('"2026-07-28" for the modern server and "2025" for a server on the 2025 handshake, in the table and in --json', async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcp-cli-era-"));
    try {
      const config = join(dir, "mcp.json");
      await writeFile(
        config,
        JSON.stringify({
          mcpServers: {
            modern: { type: "http", url: server.url, protocol: "2026-07-28" },
            // The same modern-only server cannot speak 2025; a second, dual-era one can.
            dual: { type: "http", url: dual.url, protocol: "2025" },
          },
        }),
      );
      const io = { cwd: dir, engine: createEngine2026() };
      const json = await runCliCaptured(["check", "--config", config, "--json"], io);
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as { servers: { name: string; protocolEra: string }[] };
      expect(report.servers.map((s) => [s.name, s.protocolEra])).toEqual([
        ["modern", "2026-07-28"],
        ["dual", "2025"],
      ]);
      const table = await runCliCaptured(["check", "--config", config], io);
      expect(table.stdout).toMatch(/SERVER\s+STATUS\s+TRANSPORT\s+ERA\s+HANDSHAKE/u);
      expect(table.stdout).toMatch(/modern\s+ok\s+streamable-http\s+2026-07-28\s/u);
      expect(table.stdout).toMatch(/dual\s+ok\s+streamable-http\s+2025\s/u);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
