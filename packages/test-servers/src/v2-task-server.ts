import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, fromJsonSchema, McpServer, type StandardSchemaV1 } from "@modelcontextprotocol/server";
import { bridge } from "./v2-servers.js";

/**
 * A 2026-07-28 server whose tools run as tasks of the Tasks extension (`io.modelcontextprotocol/tasks`):
 * the SDK v2 server (2.4.0) has no tasks of its own, so this one answers tools/call with
 * `resultType: "task"` when the request's client capabilities declare the extension, and serves
 * `tasks/get`, `tasks/update` and `tasks/cancel` from one store shared by the per-request server
 * instances. Wire shapes as `@modelcontextprotocol/ext-tasks` 0.2.2 types them (Tasks V2).
 */

const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const POLL_INTERVAL_MS = 20;

type Status = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as the store keeps it. */
export interface V2ServerTask {
  readonly taskId: string;
  readonly tool: string;
  status: Status;
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>;
  /** The answers tasks/update brought, by key. */
  readonly inputResponses: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  readonly createdAt: string;
  lastUpdatedAt: string;
}

export interface V2TaskHttpServer {
  readonly url: string;
  /** Every task the server created, in order. */
  readonly tasks: V2ServerTask[];
  /** The JSON-RPC methods the server got, in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

const text = (value: string): Record<string, unknown> => ({ content: [{ type: "text", text: value }] });
const anyObject = fromJsonSchema({ type: "object" });
const PARAMS: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "test-servers",
    validate: (value) =>
      typeof value === "object" && value !== null
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: "not an object" }] },
  },
};
const CONFIRM_FORM = {
  type: "object",
  properties: { interpretation: { type: "string" } },
  required: ["interpretation"],
};

/**
 * Tools (each runs as a task when the client declares the extension, else answers at once):
 * - `research {topic}`: asks the client to confirm an interpretation (elicitation), then to
 *   sample a summary (sampling), both as `input_required` with `inputRequests`; ends with
 *   "report on <topic> (<interpretation>): <the model's text>", or "no report (<action>)";
 * - `never-ending {}`: stays `working` until cancelled;
 * - `slow-to-create {}`: the same, answered 300 ms after the call arrives (an abort before the task id);
 * - `broken {}`: fails with -32603 "the research database is down";
 * - `plain {}`: never a task: answers "plain: ok".
 */
export async function startV2TaskHttpServer(): Promise<V2TaskHttpServer> {
  const tasks: V2ServerTask[] = [];
  const methods: string[] = [];
  const byId = new Map<string, V2ServerTask>();

  const create = (tool: string): V2ServerTask => {
    const at = new Date().toISOString();
    const task: V2ServerTask = {
      taskId: globalThis.crypto.randomUUID(),
      tool,
      status: "working",
      inputResponses: {},
      createdAt: at,
      lastUpdatedAt: at,
    };
    tasks.push(task);
    byId.set(task.taskId, task);
    return task;
  };
  const update = (task: V2ServerTask, change: Partial<V2ServerTask>): void => {
    if (task.status === "cancelled") return;
    Object.assign(task, change, { lastUpdatedAt: new Date().toISOString() });
  };
  const view = (task: V2ServerTask): Record<string, unknown> => ({
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: 60_000,
    pollIntervalMs: POLL_INTERVAL_MS,
    ...(task.status === "input_required" ? { inputRequests: task.inputRequests } : {}),
    ...(task.status === "completed" ? { result: task.result } : {}),
    ...(task.status === "failed" ? { error: task.error } : {}),
  });
  /** Resolves with the answer to `key` once tasks/update brings it. */
  const answerTo = async (
    task: V2ServerTask,
    key: string,
    request: { method: string; params: Record<string, unknown> },
  ): Promise<unknown> => {
    update(task, { status: "input_required", inputRequests: { [key]: request } });
    while (!(key in task.inputResponses)) {
      if (task.status === "cancelled") throw new Error("cancelled");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    update(task, { status: "working", inputRequests: undefined });
    return task.inputResponses[key];
  };
  const research = async (task: V2ServerTask, topic: string): Promise<void> => {
    const confirmed = (await answerTo(task, "confirm", {
      method: "elicitation/create",
      params: { mode: "form", message: `Which ${topic} do you mean?`, requestedSchema: CONFIRM_FORM },
    })) as { action: string; content?: { interpretation?: string } };
    if (confirmed.action !== "accept") {
      update(task, { status: "completed", result: text(`no report (${confirmed.action})`) });
      return;
    }
    const sampled = (await answerTo(task, "summary", {
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic}` } }], maxTokens: 50 },
    })) as { content: { type: string; text?: string } | { type: string; text?: string }[] };
    const first = Array.isArray(sampled.content) ? sampled.content[0] : sampled.content;
    const interpretation = confirmed.content?.interpretation ?? "?";
    update(task, { status: "completed", result: text(`report on ${topic} (${interpretation}): ${first?.text ?? ""}`) });
  };

  const build = (): McpServer => {
    const server = new McpServer(
      { name: "v2-task-server", version: "1.0.0" },
      { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    );
    const asTask = (tool: string, run: (task: V2ServerTask, args: Record<string, unknown>) => Promise<void>) =>
      ((args: Record<string, unknown>, ctx: { mcpReq: { envelope?: Record<string, unknown> } }) => {
        const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES] as
          { extensions?: Record<string, unknown> } | undefined;
        if (capabilities?.extensions?.[TASKS_EXTENSION] === undefined)
          return Promise.resolve(text(`${tool}: the client cannot run tasks`));
        const task = create(tool);
        const created = view(task);
        run(task, args).catch((error: unknown) => {
          update(task, { status: "failed", error: { code: -32603, message: (error as Error).message } });
        });
        return Promise.resolve({ resultType: "task", ...created });
      }) as never;
    server.registerTool(
      "research",
      {
        description: "Researches a topic, as a task",
        inputSchema: fromJsonSchema({ type: "object", properties: { topic: { type: "string" } }, required: ["topic"] }),
      },
      asTask("research", (task, args) => research(task, String(args.topic))),
    );
    server.registerTool(
      "never-ending",
      { description: "A task that never ends", inputSchema: anyObject },
      asTask("never-ending", () => Promise.resolve()),
    );
    const neverEnding = asTask("slow-to-create", () => Promise.resolve()) as (...args: unknown[]) => Promise<unknown>;
    server.registerTool(
      "slow-to-create",
      { description: "A task that never ends, created late", inputSchema: anyObject },
      (async (...args: unknown[]) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return neverEnding(...args);
      }) as never,
    );
    server.registerTool(
      "broken",
      { description: "A task that fails", inputSchema: anyObject },
      asTask("broken", async (task) => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        update(task, { status: "failed", error: { code: -32603, message: "the research database is down" } });
      }),
    );
    server.registerTool("plain", { description: "Never a task", inputSchema: anyObject }, () =>
      Promise.resolve(text("plain: ok") as never),
    );
    const known = (params: Record<string, unknown>): V2ServerTask => {
      const task = byId.get(String(params.taskId));
      if (task === undefined) throw new Error(`unknown task ${String(params.taskId)}`);
      return task;
    };
    server.server.setRequestHandler("tasks/get", { params: PARAMS }, (params) =>
      Promise.resolve(view(known(params)) as never),
    );
    server.server.setRequestHandler("tasks/update", { params: PARAMS }, (params, ctx) => {
      const task = known(params);
      // The SDK lifts a 2026 request's `inputResponses` out of its params (it is also the field of
      // an input_required retry) into the context.
      const answers = params.inputResponses ?? (ctx.mcpReq as { inputResponses?: unknown }).inputResponses;
      Object.assign(task.inputResponses, answers as Record<string, unknown>);
      return Promise.resolve({} as never);
    });
    server.server.setRequestHandler("tasks/cancel", { params: PARAMS }, (params) => {
      const task = known(params);
      update(task, { status: "cancelled" });
      return Promise.resolve({} as never);
    });
    return server;
  };

  const handler = createMcpHandler(() => build(), { legacy: "reject", keepAliveMs: 0 });
  const http = createServer((request, response) => {
    void bridge(handler.fetch, request, response, methods);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    tasks,
    methods,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
