import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { startConformanceHttpServer, type ConformanceHttpServer } from "../src/index.js";

// The conformance server sends a log only at or above the level the client set (core's
// MCP_LOG_LEVELS order), seen by the SDK 1.x Client over real HTTP on 127.0.0.1.
let server: ConformanceHttpServer;

beforeAll(async () => {
  server = await startConformanceHttpServer();
}, 30_000);

afterAll(async () => {
  await server.close();
}, 30_000);

describe("the conformance server's logging", () => {
  it("drops info logs below the level set, and sends them at or under it", { timeout: 30_000 }, async () => {
    const client = new Client({ name: "logging-test", version: "1" });
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(`${notification.params.level}: ${String(notification.params.data)}`);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      await client.setLoggingLevel("warning");
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(logs).toEqual([]);
      await client.setLoggingLevel("debug");
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(logs).toEqual([
        "info: Tool execution started",
        "info: Tool processing data",
        "info: Tool execution completed",
      ]);
    } finally {
      await client.close();
    }
  });
});
