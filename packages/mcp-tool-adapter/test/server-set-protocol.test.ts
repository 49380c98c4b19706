import { realpath } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import {
  createTempDirectory,
  everythingStdioServer,
  expectNoLeakedProcesses,
  filesystemStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPConfigFileError, MCPServerSet, parseConfig, type MCPServerLogEntry } from "../src/index.js";

describe("config files: roots and logLevel per server", () => {
  it("reads roots (absolute paths, file:// URIs, { uri, name }) and logLevel", async () => {
    const text = JSON.stringify({
      mcpServers: {
        files: {
          command: "node",
          roots: ["/srv/data", "file:///srv/logs", { uri: "file:///srv/docs", name: "docs" }],
          logLevel: "warning",
        },
      },
    });
    const { servers } = await parseConfig(text, { file: "/cfg/mcp.json", env: {} });
    expect(servers.files).toEqual({
      transport: "stdio",
      command: "node",
      logLevel: "warning",
      roots: [
        { uri: pathToFileURL("/srv/data").href },
        { uri: "file:///srv/logs" },
        { uri: "file:///srv/docs", name: "docs" },
      ],
    });
  });

  it("names a relative root and an unknown log level", async () => {
    const text = JSON.stringify({
      mcpServers: { a: { command: "node", roots: ["data"] }, b: { command: "node", logLevel: "verbose" } },
    });
    let error: unknown;
    try {
      await parseConfig(text, { file: "/cfg/mcp.json", env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(MCPConfigFileError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    expect(message).toContain('"data" must be an absolute path or a file:// URI');
    expect(message).toContain('must be one of "debug", "info"');
  });
});

describe("MCPServerSet with roots, log levels and client handlers per server", () => {
  let set: MCPServerSet;
  let rootA: TempDirectory;
  let rootB: TempDirectory;
  let started: TempDirectory;
  const logs: MCPServerLogEntry[] = [];

  beforeAll(async () => {
    [rootA, rootB, started] = await Promise.all([
      createTempDirectory("set-root-a-"),
      createTempDirectory("set-root-b-"),
      createTempDirectory("set-start-"),
    ]);
    set = new MCPServerSet(
      {
        files: {
          transport: "stdio",
          ...filesystemStdioServer([started.path]),
          roots: [{ uri: pathToFileURL(await realpath(rootA.path)).href }],
        },
        everything: {
          transport: "stdio",
          ...everythingStdioServer(),
          logLevel: "debug",
          tools: { include: ["toggle-simulated-logging", "get-roots-list"] },
        },
      },
      { connectTimeoutMs: 20_000, clientFeatures: { onLog: (entry) => logs.push(entry) } },
    );
    const report = await set.connect();
    expect(report.ok).toBe(true);
  });

  afterAll(async () => {
    await set.close();
    await Promise.all([rootA.remove(), rootB.remove(), started.remove()]);
    await expectNoLeakedProcesses();
  });

  it("gives each server its own roots, and setRoots through the set's adapter", async () => {
    const allowed = async () => {
      const result = await set.registry.call("files/list_allowed_directories", {});
      return JSON.stringify(result.data);
    };
    const a = await realpath(rootA.path);
    const b = await realpath(rootB.path);
    await expect.poll(allowed, { timeout: 10_000 }).toContain(a);
    expect(await allowed()).not.toContain(await realpath(started.path));
    await set.getAdapter("files")!.setRoots!([{ uri: pathToFileURL(b).href }]);
    await expect.poll(allowed, { timeout: 10_000 }).toContain(b);
    expect(await allowed()).not.toContain(a);
    // The other server declared no roots: it offers no get-roots-list tool.
    expect(set.registry.has("everything/get-roots-list")).toBe(false);
  });

  it("sends each server's log level and hands its log messages, tagged, to onLog", async () => {
    expect((await set.registry.call("everything/toggle-simulated-logging", {})).success).toBe(true);
    await expect
      .poll(() => logs.some((entry) => entry.serverName === "everything" && /level/i.test(String(entry.data))), {
        timeout: 10_000,
      })
      .toBe(true);
    expect((await set.registry.call("everything/toggle-simulated-logging", {})).success).toBe(true);
  });
});
