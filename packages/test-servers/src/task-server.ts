import { InMemoryTaskMessageQueue, InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** An in-process SDK 1.x server whose tools run as MCP tasks (protocol 2025-11-25). */
export interface TaskTestServer {
  /** The client end of an in-memory pair linked to the server (SDK 1.x; structurally an SDK v2 transport too). */
  readonly clientTransport: Transport;
  /** The server's task store: read a task's status (`cancelled` after a cancel) from it. */
  readonly taskStore: InMemoryTaskStore;
  /** The id of every task the server created, in order. */
  readonly created: string[];
  close(): Promise<void>;
}

/**
 * Two task tools (`execution.taskSupport: "required"`):
 * - `never-ending`: a task that stays `working` until cancelled (for timeouts and aborts);
 * - `slow-to-create`: the same, but the server answers 300 ms after the call arrives (an abort
 *   before the task id arrives);
 * - `summarize` `{ text }`: a task that asks the client to sample a summary of `text` while it
 *   runs (the request is queued on the task and delivered through `tasks/result`), and ends with
 *   `summary: <the model's text>`.
 */
export async function startTaskTestServer(): Promise<TaskTestServer> {
  const taskStore = new InMemoryTaskStore();
  const created: string[] = [];
  const server = new McpServer(
    { name: "task-server", version: "1.0.0" },
    {
      capabilities: { tools: {}, tasks: { cancel: {}, list: {}, requests: { tools: { call: {} } } } },
      taskStore,
      // Where requests a task makes wait until the client reads them through tasks/result.
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  server.experimental.tasks.registerToolTask(
    "never-ending",
    { description: "A task that never finishes", execution: { taskSupport: "required" } },
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
  server.experimental.tasks.registerToolTask(
    "slow-to-create",
    { description: "A task that never finishes, created 300 ms late", execution: { taskSupport: "required" } },
    {
      createTask: async (extra) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        created.push(task.taskId);
        return { task };
      },
      getTask: async (extra) => await extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
    },
  );
  server.experimental.tasks.registerToolTask(
    "summarize",
    {
      description: "Summarizes a text with the client's model, as a task",
      inputSchema: { text: z.string() },
      execution: { taskSupport: "required" },
    },
    {
      createTask: async ({ text }, extra) => {
        const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
        created.push(task.taskId);
        const { taskId } = task;
        const summarize = async (): Promise<void> => {
          // Queued on the task (relatedTask): the client reads it through tasks/result.
          const sampled = await server.server.request(
            {
              method: "sampling/createMessage",
              params: {
                messages: [{ role: "user", content: { type: "text", text: `Summarize: ${text}` } }],
                maxTokens: 50,
              },
            },
            CreateMessageResultSchema,
            { relatedTask: { taskId } },
          );
          const content = sampled.content;
          const reply = content.type === "text" ? content.text : `(${content.type})`;
          const result: CallToolResult = { content: [{ type: "text", text: `summary: ${reply}` }] };
          await extra.taskStore.storeTaskResult(taskId, "completed", result);
        };
        summarize().catch(async (error: unknown) => {
          await extra.taskStore.updateTaskStatus(taskId, "failed", String(error)).catch(() => undefined);
        });
        return { task };
      },
      getTask: async (_args, extra) => await extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as never,
    },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  return {
    clientTransport,
    taskStore,
    created,
    close: async () => {
      await server.close();
      taskStore.cleanup();
    },
  };
}
