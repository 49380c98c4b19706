import { MCPConnectionError, MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// One modern-only SDK v2 server (it refuses the 2025 handshake) for the file, in this process.
let server: V2HttpServer;
const adapters: MCPToolAdapter[] = [];

beforeAll(async () => {
  server = await startV2HttpServer({ modernOnly: true, toolsListTtlMs: 60_000 });
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});
afterAll(async () => {
  await server.close();
});

function adapterFor(protocol: "auto" | "2025" | "2026-07-28", engine = createEngine2026()): MCPToolAdapter {
  const adapter = new MCPToolAdapter(
    { name: "modern", transport: "streamable-http", url: server.url, protocol },
    { engine, defaultTimeoutMs: 10_000 },
  );
  adapters.push(adapter);
  return adapter;
}

function count(method: string): number {
  return server.methods.filter((seen) => seen === method).length;
}

describe("engine-2026 against a modern-only SDK v2 server over streamable HTTP", () => {
  it("auto finds 2026-07-28 (no initialize is sent), lists the tools and calls one", async () => {
    const adapter = adapterFor("auto");
    await adapter.connect();
    expect(adapter.protocolEra).toBe("2026-07-28");
    expect(adapter.protocolVersion).toBe("2026-07-28");
    expect(adapter.serverInfo?.name).toBe("v2-test-server");
    expect(adapter.serverCapabilities?.tools).toBeDefined();
    expect((await adapter.discoverTools()).map((tool) => tool.name).sort()).toEqual([
      "ask",
      "echo",
      "fail",
      "roots",
      "route",
      "sample",
      "slow",
    ]);
    const result = await adapter.invoke("echo", { text: "hi" });
    expect(result).toMatchObject({ success: true, data: { content: [{ type: "text", text: "echo: hi" }] } });
    expect(server.methods).not.toContain("initialize");
  });

  it("mirrors an x-mcp-header argument into its Mcp-Param header (the server refuses the call without it)", async () => {
    const adapter = adapterFor("2026-07-28");
    await adapter.connect();
    await adapter.discoverTools();
    expect(await adapter.invoke("route", { region: "eu-west" })).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "route: eu-west" }] },
    });
  });

  it("serves a tool list younger than its ttlMs from the cache, without a request", async () => {
    const adapter = adapterFor("2026-07-28");
    await adapter.connect();
    const before = count("tools/list");
    await adapter.discoverTools();
    await adapter.discoverTools();
    expect(count("tools/list") - before).toBe(1);
  });

  it("keeps the adapter's classification: validation, tool errors, timeouts, cancellation, progress", async () => {
    const adapter = adapterFor("2026-07-28");
    await adapter.connect();
    expect(await adapter.invoke("echo", { text: 5 })).toMatchObject({ success: false, errorKind: "validation" });
    expect(await adapter.invoke("fail")).toMatchObject({
      success: false,
      errorKind: "server_error",
      error: "server error: it failed on purpose",
    });
    const late = await adapter.invoke("slow", { ms: 2_000 }, { timeoutMs: 50 });
    expect(late).toMatchObject({ success: false, errorKind: "timeout" });
    expect(late.error).toContain('timeout after 50 ms: tool "slow"');
    const controller = new AbortController();
    const cancelled = adapter.invoke("slow", { ms: 2_000 }, { signal: controller.signal });
    controller.abort(new Error("the user pressed stop"));
    expect(await cancelled).toMatchObject({ success: false, errorKind: "cancelled" });
    const progress: number[] = [];
    const done = await adapter.invoke("slow", { ms: 20, steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(done).toMatchObject({ success: true });
    expect(progress).toEqual([1, 2]);
  });

  it("remembers the era auto found, per server, for the next connect", async () => {
    const engine = createEngine2026();
    const config = { name: "modern", transport: "streamable-http", url: server.url, protocol: "auto" } as const;
    expect(engine.knownEra(config)).toBeUndefined();
    const adapter = adapterFor("auto", engine);
    await adapter.connect();
    expect(engine.knownEra(config)).toBe("2026-07-28");
    await adapter.reconnect();
    expect(adapter.protocolEra).toBe("2026-07-28");
  });

  it('"2025" cannot connect, and the error says the server refused the protocol version', async () => {
    const error = await adapterFor("2025")
      .connect({ timeoutMs: 5_000 })
      .catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('Could not establish a connection to MCP server "modern"');
    expect((error as Error).message).toMatch(/Unsupported protocol version/u);
  });
});
