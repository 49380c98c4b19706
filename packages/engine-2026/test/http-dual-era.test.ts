import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// One dual-era SDK v2 server (2026-07-28, and 2025 through its stateless fallback), in this process.
let server: V2HttpServer;
const adapters: MCPToolAdapter[] = [];

beforeAll(async () => {
  server = await startV2HttpServer();
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});
afterAll(async () => {
  await server.close();
});

function adapterFor(protocol: "auto" | "2025"): MCPToolAdapter {
  const adapter = new MCPToolAdapter(
    { name: "dual", transport: "streamable-http", url: server.url, protocol },
    { engine: createEngine2026() },
  );
  adapters.push(adapter);
  return adapter;
}

describe("engine-2026 against a dual-era SDK v2 server over streamable HTTP", () => {
  it("auto prefers 2026-07-28", async () => {
    const adapter = adapterFor("auto");
    await adapter.connect();
    expect(adapter.protocolEra).toBe("2026-07-28");
    expect(await adapter.invoke("echo", { text: "new" })).toMatchObject({ success: true });
  });

  it('"2025" speaks the initialize handshake, and lists again on every discovery (no cache hints in 2025)', async () => {
    const adapter = adapterFor("2025");
    await adapter.connect();
    expect(adapter.protocolEra).toBe("2025");
    expect(adapter.protocolVersion).toBe("2025-11-25");
    expect(server.methods).toContain("initialize");
    const lists = (): number => server.methods.filter((method) => method === "tools/list").length;
    const before = lists();
    await adapter.discoverTools();
    await adapter.discoverTools();
    expect(lists() - before).toBe(2);
    expect(await adapter.invoke("echo", { text: "old" })).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "echo: old" }] },
    });
  });
});
