import { describe, expect, it } from "vitest";
import { MCPConfigError, type MCPServerLogEntry } from "../src/index.js";
import { connectedHarness, createHarness, waitFor } from "./helpers.js";

interface Line {
  method: string;
  message: string;
  data: unknown;
}

function recordingLogger() {
  const lines: Line[] = [];
  const record = (method: string) => (message: string, data?: unknown) => lines.push({ method, message, data });
  return {
    lines,
    logger: { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") },
  };
}

describe("server logs", () => {
  it("writes each log message to the logger at the matching level, tagged with the server's name, and to onLog", async () => {
    const { lines, logger } = recordingLogger();
    const entries: MCPServerLogEntry[] = [];
    const { server } = await connectedHarness({ logging: true }, { logger, onLog: (entry) => entries.push(entry) });
    await server.sendLog({ level: "warning", logger: "db", data: "disk almost full" });
    await server.sendLog({ level: "critical", data: { code: 7 } });
    await server.sendLog({ level: "notice", data: "n" });
    await waitFor(() => entries.length === 3);
    expect(entries[0]).toEqual({ serverName: "test-server", level: "warning", logger: "db", data: "disk almost full" });
    const serverLines = lines.filter((line) => line.message.startsWith('MCP server "test-server" '));
    expect(serverLines.map((line) => [line.method, line.message])).toEqual([
      ["warn", 'MCP server "test-server" warning (db): disk almost full'],
      ["error", 'MCP server "test-server" critical: {"code":7}'],
      ["info", 'MCP server "test-server" notice: n'],
    ]);
  });

  it("sends the configured level on every connect, and setLogLevel on demand", async () => {
    const { adapter, server } = await connectedHarness({ logging: true }, { logLevel: "warning" });
    await waitFor(() => server.logLevels.length === 1);
    expect(server.logLevels).toEqual(["warning"]);
    await adapter.reconnect();
    await waitFor(() => server.logLevels.length === 2);
    expect(await adapter.setLogLevel("debug")).toMatchObject({ success: true });
    expect(server.logLevels).toEqual(["warning", "warning", "debug"]);
    expect(await adapter.setLogLevel("loud" as never)).toMatchObject({ success: false, errorKind: "validation" });
  });

  it("says not_supported for setLogLevel on a server without logging", async () => {
    const { adapter } = await connectedHarness({});
    expect(await adapter.setLogLevel("info")).toMatchObject({ success: false, errorKind: "not_supported" });
  });

  it("rejects an unknown logLevel option at construction", () => {
    expect(() => createHarness({}, { logLevel: "verbose" as never })).toThrow(MCPConfigError);
  });

  it("forwards at most maxLogMessagesPerSecond of a flood and reports the dropped ones once the second is over", async () => {
    let clock = 0;
    const { lines, logger } = recordingLogger();
    const entries: MCPServerLogEntry[] = [];
    const { adapter, server } = await connectedHarness(
      { logging: true, tools: [{ name: "ping" }] },
      { logger, onLog: (entry) => entries.push(entry), maxLogMessagesPerSecond: 50, now: () => clock },
    );
    await server.floodLogs(2_000);
    // The host stays responsive: a call goes through after the flood was delivered.
    expect((await adapter.invoke("ping", {})).success).toBe(true);
    expect(entries).toHaveLength(50);
    clock += 1_000;
    await server.sendLog({ level: "info", data: "after" });
    await waitFor(() => entries.length === 51);
    const dropped = lines.find((line) => line.message.includes("were dropped"));
    expect(dropped?.message).toBe(
      'MCP server "test-server" sent more than 50 log messages in a second; 1950 were dropped',
    );
  });

  it("keeps a throwing onLog listener from reaching the host", async () => {
    const { lines, logger } = recordingLogger();
    const { adapter, server } = await connectedHarness({ logging: true }, { logger });
    adapter.onLog(() => {
      throw new Error("listener bug");
    });
    await server.sendLog({ level: "info", data: "x" });
    await waitFor(() => lines.some((line) => line.message.includes("listener bug")));
  });
});
