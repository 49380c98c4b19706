import { MCPToolAdapter, type ToolsChangedEvent } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// One modern-only SDK v2 server for the file, in this process; its tool list is cacheable for a
// minute, so a refresh that came from the cache would miss the change.
let server: V2HttpServer;
let adapter: MCPToolAdapter;

beforeAll(async () => {
  server = await startV2HttpServer({ modernOnly: true, toolsListTtlMs: 60_000 });
  adapter = new MCPToolAdapter(
    { name: "modern", transport: "streamable-http", url: server.url, protocol: "2026-07-28" },
    { engine: createEngine2026(), defaultTimeoutMs: 10_000 },
  );
  await adapter.connect();
});
afterAll(async () => {
  await adapter.disconnect();
  await server.close();
});

function nextChange(): Promise<ToolsChangedEvent> {
  return new Promise((resolve) => {
    const unsubscribe = adapter.onToolsChanged((event) => {
      unsubscribe();
      resolve(event);
    });
  });
}

describe("list changes on 2026-07-28 (subscriptions/listen)", () => {
  it("opens a listen stream at connect and keeps a registry in step with tools added and removed at runtime", async () => {
    expect(server.methods).toContain("subscriptions/listen");
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "modern");
    expect(registry.has("modern/added")).toBe(false);

    const added = nextChange();
    server.addTool("added");
    expect(await added).toMatchObject({ added: ["added"], removed: [] });
    expect(registry.has("modern/added")).toBe(true);
    expect(await adapter.invoke("added")).toMatchObject({ success: true, data: { content: [{ text: "added: ok" }] } });

    const removed = nextChange();
    server.removeTool("added");
    expect(await removed).toMatchObject({ added: [], removed: ["added"] });
    expect(registry.has("modern/added")).toBe(false);
  });

  it("listens again after the server ends the stream, and finds a change made while no stream was open", async () => {
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "again");
    const listens = (): number => server.methods.filter((method) => method === "subscriptions/listen").length;
    const listensBefore = listens();

    // Nobody hears of this change; the client only finds it by listing again after the gap (the
    // server's list is cacheable for a minute, so that list must not come from the SDK's cache).
    const caughtUp = nextChange();
    server.addTool("missed", { announce: false });
    await server.endListenStreams();
    expect(await caughtUp).toMatchObject({ added: ["missed"], removed: [] });
    expect(registry.has("again/missed")).toBe(true);
    expect(listens()).toBe(listensBefore + 1);

    // The new stream carries the changes that follow.
    const later = nextChange();
    server.addTool("later");
    expect(await later).toMatchObject({ added: ["later"], removed: [] });
    expect(registry.has("again/later")).toBe(true);
    server.removeTool("missed");
    server.removeTool("later");
  });
});
