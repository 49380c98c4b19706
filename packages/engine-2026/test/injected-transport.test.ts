import { MCPConnectionError, MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import type { MCPEngineServer } from "@mcp-tool-adapter/core";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryTransport, type JSONRPCMessage } from "@modelcontextprotocol/client";
import { createEngine2026, createEngine2026Transport } from "../src/index.js";

// The engine's `transport` option: the edge where a host decorates the default transport (or
// reaches an in-process server); one modern-only SDK v2 server for the file.
let server: V2HttpServer;

beforeAll(async () => {
  server = await startV2HttpServer({ modernOnly: true });
});
afterAll(async () => {
  await server.close();
});

describe("engine-2026 with an injected transport", () => {
  it("builds every connection's transport with the factory, given the server's config", async () => {
    const seen: MCPEngineServer[] = [];
    const engine = createEngine2026({
      transport: (config) => {
        seen.push(config);
        return createEngine2026Transport(config);
      },
    });
    const adapter = new MCPToolAdapter(
      { name: "modern", transport: "streamable-http", url: server.url, protocol: "2026-07-28" },
      { engine },
    );
    try {
      await adapter.connect();
      await adapter.reconnect();
      expect(adapter.protocolEra).toBe("2026-07-28");
      expect(await adapter.invoke("echo", { text: "injected" })).toMatchObject({ success: true });
    } finally {
      await adapter.disconnect();
    }
    expect(seen.map((config) => [config.name, config.url])).toEqual([
      ["modern", server.url],
      ["modern", server.url],
    ]);
  });

  it("a factory that fails makes connect fail with MCPConnectionError naming its reason", async () => {
    const engine = createEngine2026({
      transport: () => Promise.reject(new Error("no socket for you")),
    });
    const adapter = new MCPToolAdapter(
      { name: "modern", transport: "streamable-http", url: server.url, protocol: "2026-07-28" },
      { engine },
    );
    const error = await adapter.connect().catch((caught: unknown) => caught);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("no socket for you");
  });
});

/**
 * A 2025-era server from before today's result shape, spoken by hand over the SDK's in-memory
 * link: it answers tools/call with a bare content list (MCP 1.4.0) or, for "shaped", with the
 * 2024-10-07 `toolResult`.
 */
function oldServer(): InMemoryTransport {
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = (message: JSONRPCMessage) => {
    if (!("id" in message) || !("method" in message)) return;
    const answer = (result: unknown): void =>
      void server.send({ jsonrpc: "2.0", id: message.id, result } as JSONRPCMessage);
    if (message.method === "initialize")
      answer({ protocolVersion: "2025-03-26", capabilities: { tools: {} }, serverInfo: { name: "old", version: "1" } });
    else if (message.method === "tools/list")
      answer({
        tools: [
          { name: "bare", inputSchema: { type: "object" } },
          { name: "shaped", inputSchema: { type: "object" } },
        ],
      });
    else if (message.method === "tools/call")
      answer(
        (message.params as { name: string }).name === "bare"
          ? [{ type: "text", text: "from 1.4.0" }]
          : { toolResult: "from 2024" },
      );
  };
  void server.start();
  return client;
}

describe("engine-2026 and the result shapes of older 2025-era servers", () => {
  it("a bare content list and the toolResult shape reach the adapter as content", async () => {
    const adapter = new MCPToolAdapter(
      { name: "old", transport: "stdio", command: "unused" },
      { engine: createEngine2026({ transport: () => oldServer() }) },
    );
    try {
      await adapter.connect();
      expect(adapter.protocolEra).toBe("2025");
      expect(await adapter.invoke("bare", {}, { timeoutMs: 5_000 })).toMatchObject({
        success: true,
        data: { content: [{ type: "text", text: "from 1.4.0" }] },
      });
      expect(await adapter.invoke("shaped", {}, { timeoutMs: 5_000 })).toMatchObject({
        success: true,
        data: { content: [{ type: "text", text: "from 2024" }] },
      });
    } finally {
      await adapter.disconnect();
    }
  });
});
