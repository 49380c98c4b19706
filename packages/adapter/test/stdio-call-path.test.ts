import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPToolAdapter } from "../src/index.js";

// Sequential calls over a real stdio pipe, where the transport reports each request written at once
// (core's SENT_AT_ONCE) and the session then listens for no write failure: the deadline and the
// session's health must not depend on that listener.
const adapters: MCPToolAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
  await expectNoLeakedProcesses();
});

async function everything(): Promise<MCPToolAdapter> {
  const launch = everythingStdioServer();
  const adapter = new MCPToolAdapter(
    { name: "everything", transport: "stdio", command: launch.command, args: launch.args },
    { transport: () => createStdioTransport({ command: launch.command, args: [...launch.args] }) },
  );
  adapters.push(adapter);
  await adapter.connect({ timeoutMs: 30_000 });
  return adapter;
}

describe("sequential calls over stdio", { timeout: 60_000 }, () => {
  it("answers each call with its own echo", async () => {
    const adapter = await everything();
    for (let n = 0; n < 20; n += 1) {
      const result = await adapter.invoke("echo", { message: `call ${n}` });
      expect(result).toMatchObject({ success: true, data: { content: [{ type: "text", text: `Echo: call ${n}` }] } });
    }
  });

  it("still times out a call whose request was written at once, and the next call still works", async () => {
    const adapter = await everything();
    await expect(adapter.invoke("echo", { message: "first" })).resolves.toMatchObject({ success: true });
    const slow = await adapter.invoke("trigger-long-running-operation", { duration: 20, steps: 1 }, { timeoutMs: 300 });
    expect(slow).toMatchObject({ success: false, errorKind: "timeout" });
    await expect(adapter.invoke("echo", { message: "after" })).resolves.toMatchObject({ success: true });
  });

  it("leaves holding the process open to the server (the deadline timer is unreferenced), and still times out", async () => {
    const adapter = await everything();
    const deadlineTimers: ReturnType<typeof setTimeout>[] = [];
    const realSetTimeout = globalThis.setTimeout;
    const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation((...args: Parameters<typeof setTimeout>) => {
      const timer = realSetTimeout(...args);
      // The session's one timer, armed again for this call's deadline (a little under 400 ms from now).
      if (typeof args[1] === "number" && args[1] > 300 && args[1] <= 400) deadlineTimers.push(timer);
      return timer;
    });
    try {
      const slow = adapter.invoke("trigger-long-running-operation", { duration: 20, steps: 1 }, { timeoutMs: 400 });
      await vi.waitFor(() => {
        expect(deadlineTimers).toHaveLength(1);
      });
      expect(deadlineTimers[0]!.hasRef()).toBe(false);
      await expect(slow).resolves.toMatchObject({ success: false, errorKind: "timeout" });
    } finally {
      spy.mockRestore();
    }
  });

  it("refuses invalid arguments before anything is sent, and the session goes on", async () => {
    const adapter = await everything();
    const refused = await adapter.invoke("echo", { message: 42 });
    expect(refused).toMatchObject({ success: false, errorKind: "validation" });
    await expect(adapter.invoke("echo", { message: "valid" })).resolves.toMatchObject({ success: true });
  });
});
