import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "../src/index.js";
import { STDIO_CONFIG } from "./helpers.js";

// Tools that declare execution.taskSupport "required" (MCP tasks). The happy path, with an
// elicitation on the way, runs against real server-everything in the umbrella's e2e tests.

let adapter: MCPToolAdapter | undefined;
afterEach(async () => {
  await adapter?.disconnect();
  adapter = undefined;
});

/** A server whose one tool is a task that never finishes; it records the task ids it created. */
async function neverEndingTaskServer(): Promise<{ taskStore: InMemoryTaskStore; created: string[] }> {
  const taskStore = new InMemoryTaskStore();
  const created: string[] = [];
  const server = new McpServer(
    { name: "tasks", version: "1.0.0" },
    { capabilities: { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } }, taskStore },
  );
  server.experimental.tasks.registerToolTask(
    "research",
    { description: "never finishes", execution: { taskSupport: "required" } },
    {
      createTask: async (extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        created.push(task.taskId);
        return { task };
      },
      getTask: async (extra) => await extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
    },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => clientTransport });
  await adapter.connect();
  await adapter.discoverTools();
  return { taskStore, created };
}

describe("task-based tools", () => {
  it("a call that times out cancels its task on the server", async () => {
    const { taskStore, created } = await neverEndingTaskServer();
    const result = await adapter!.invoke("research", {}, { timeoutMs: 300 });
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(created).toHaveLength(1);
    await expect.poll(async () => (await taskStore.getTask(created[0]!))?.status).toBe("cancelled");
  });
});
