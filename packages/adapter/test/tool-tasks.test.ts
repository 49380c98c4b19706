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
