import { startTaskTestServer, type TaskTestServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "../src/index.js";
import { STDIO_CONFIG } from "./helpers.js";

// Tools that declare execution.taskSupport "required" (MCP tasks). The happy path, with an
// elicitation on the way, runs against real server-everything in the umbrella's e2e tests.

let adapter: MCPToolAdapter | undefined;
let server: TaskTestServer | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  await server?.close();
  adapter = undefined;
  server = undefined;
});

describe("task-based tools", () => {
  it("a call that times out cancels its task on the server", async () => {
    server = await startTaskTestServer();
    const clientTransport = server.clientTransport;
    adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => clientTransport });
    await adapter.connect();
    await adapter.discoverTools();

    const result = await adapter.invoke("never-ending", {}, { timeoutMs: 300 });

    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(server.created).toHaveLength(1);
    const [taskId] = server.created;
    const taskStore = server.taskStore;
    await expect.poll(async () => (await taskStore.getTask(taskId!))?.status).toBe("cancelled");
  });
});

describe("a task call aborted before its task id arrives", () => {
  it("ends at once with the abort, then cancels the task the late answer names", async () => {
    server = await startTaskTestServer();
    const inner = server.clientTransport;
    const controller = new AbortController();
    // Aborts as soon as the creating tools/call is on its way: the server answers 300 ms later.
    const sent = inner.send.bind(inner);
    inner.send = async (message, options) => {
      await sent(message, options);
      if ("method" in message && message.method === "tools/call") controller.abort(new Error("user gave up"));
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => inner });
      await adapter.connect();
      await adapter.discoverTools();

      const result = await adapter.invoke("slow-to-create", {}, { signal: controller.signal, timeoutMs: 30_000 });

      expect(result).toMatchObject({ success: false, errorKind: "cancelled" });
      // The caller had its answer before the server created the task.
      expect(server.created).toHaveLength(0);
      await expect.poll(() => server?.created.length, { timeout: 10_000 }).toBe(1);
      const [taskId] = server.created;
      const taskStore = server.taskStore;
      await expect.poll(async () => (await taskStore.getTask(taskId!))?.status, { timeout: 10_000 }).toBe("cancelled");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  it("stops listening after abortedTaskWaitMs: a task created later is left to its TTL, and nothing rejects unhandled", async () => {
    server = await startTaskTestServer();
    const inner = server.clientTransport;
    const controller = new AbortController();
    const sent = inner.send.bind(inner);
    inner.send = async (message, options) => {
      await sent(message, options);
      if ("method" in message && message.method === "tools/call") controller.abort(new Error("user gave up"));
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => inner, abortedTaskWaitMs: 20 });
      await adapter.connect();
      await adapter.discoverTools();

      const result = await adapter.invoke("slow-to-create", {}, { signal: controller.signal, timeoutMs: 30_000 });

      expect(result).toMatchObject({ success: false, errorKind: "cancelled" });
      await expect.poll(() => server?.created.length, { timeout: 10_000 }).toBe(1);
      const [taskId] = server.created;
      // Stopping to listen told the server to cancel the request, so its answer (and the task id) never came.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await server.taskStore.getTask(taskId!))?.status).toBe("working");
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
