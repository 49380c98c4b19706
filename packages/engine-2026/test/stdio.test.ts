import { MCPConnectionError, MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { expectNoLeakedProcesses, v2StdioServerConfig } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// The SDK v2 server script over stdio: a process per connect (stdio has no shared server).
const adapters: MCPToolAdapter[] = [];
/** Bounds a hang only: a server started under tsx on a loaded CI machine can take many seconds to answer. */
const HANG_BOUND_MS = 30_000;

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
  await expectNoLeakedProcesses();
});

function adapterFor(protocol: "auto" | "2026-07-28", modernOnly: boolean): MCPToolAdapter {
  const adapter = new MCPToolAdapter(
    { name: "v2-stdio", transport: "stdio", ...v2StdioServerConfig({ modernOnly }), protocol },
    {
      engine: createEngine2026(),
      connectTimeoutMs: HANG_BOUND_MS,
      // The same handler answers a server request on 2025 and an input_required result on 2026-07-28.
      onElicitation: () => ({ action: "accept", content: { name: protocol } }),
    },
  );
  adapters.push(adapter);
  return adapter;
}

describe("engine-2026 over stdio", { timeout: 2 * HANG_BOUND_MS }, () => {
  it('"2026-07-28" speaks the new revision to a modern-only server', async () => {
    const adapter = adapterFor("2026-07-28", true);
    await adapter.connect();
    expect(adapter.protocolEra).toBe("2026-07-28");
    expect(await adapter.invoke("echo", { text: "pipe" })).toMatchObject({
      success: true,
      data: { content: [{ type: "text", text: "echo: pipe" }] },
    });
    expect(await adapter.invoke("ask")).toMatchObject({
      success: true,
      data: { content: [{ text: "hello 2026-07-28" }] },
    });
  });

  it("auto stays on 2025 over stdio (no probe process), so a modern-only server needs the setting", async () => {
    const adapter = adapterFor("auto", false);
    await adapter.connect();
    expect(adapter.protocolEra).toBe("2025");
    expect(await adapter.invoke("ask")).toMatchObject({ success: true, data: { content: [{ text: "hello auto" }] } });
    await adapter.disconnect();
    const error = await adapterFor("auto", true)
      .connect()
      .catch((e: unknown) => e);
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/Unsupported protocol version/u);
  });
});
