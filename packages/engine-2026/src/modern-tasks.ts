import { describeCause, type MCPEngineConnectRequest } from "@mcp-tool-adapter/core";
import { ProtocolError, SdkError, SdkErrorCode, type Client, type Transport } from "@modelcontextprotocol/client";
import { JSON_OBJECT_SCHEMA } from "./task-requests.js";

/**
 * MCP tasks on 2026-07-28: the Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663; its
 * wire shapes as `@modelcontextprotocol/ext-tasks` 0.2.2 types them). A client that declares the
 * extension in its capabilities lets the server answer any tools/call with a task
 * (`resultType: "task"` and the task's fields); the client then polls `tasks/get` until the task
 * is `completed` (its `result`), `failed` (its `error`) or `cancelled`, answers the requests of an
 * `input_required` task (`inputRequests`, keyed) with `tasks/update` (`inputResponses`, same keys),
 * and stops it with `tasks/cancel`.
 *
 * SDK v2's Client lets `tasks/get` and `tasks/cancel` (and the extension-only `tasks/update`)
 * through its schema-taking `request`, but rejects a tools/call result whose `resultType` is
 * `task` (UNSUPPORTED_RESULT_TYPE, in its 2026 codec's `decodeResult`); the official extension
 * asks the host for a raw dispatch path around the Client for that reason. Instead of a second
 * JSON-RPC channel, {@link carryTaskResults} hands such an answer to the Client as a complete
 * result that carries the task under {@link CARRIED_TASK}, so the call keeps the Client's
 * timeouts, aborts, headers and input_required rounds, and the engine drives the task from there.
 */

/** The extension's id: the key in `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Where a task answer travels, inside a complete result's `_meta`, from the transport to the engine. */
const CARRIED_TASK = "dev.mcp-tool-adapter/engine-2026/task";

const DEFAULT_POLL_MS = 500;
const MIN_POLL_MS = 20;
const MAX_POLL_MS = 5_000;
const INTERNAL_ERROR = -32603;

type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as tools/call and tasks/get show it (the fields this driver reads). */
interface ModernTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: Record<string, { method: string; params?: Record<string, unknown> }>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** Whether the server declared the Tasks extension in its capabilities (an empty object, as the extension says). */
export function serverOffersTasks(capabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  const declared = capabilities?.extensions?.[TASKS_EXTENSION];
  return typeof declared === "object" && declared !== null && !Array.isArray(declared);
}

/** The client capabilities with the Tasks extension declared (the engine drives every task it is given). */
export function withTasksExtension<T extends { extensions?: Record<string, unknown> }>(capabilities: T): T {
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
}

/**
 * From now on, a response that answers with a task reaches the Client as a complete result
 * carrying it (see the module's note). Called once the connection is on 2026-07-28, after the
 * Client installed its own `onmessage`.
 */
export function carryTaskResults(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    deliver(carried(message), extra);
  };
}

function carried<T>(message: T): T {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== "object" || result === null || (result as { resultType?: unknown }).resultType !== "task")
    return message;
  const { resultType: _task, _meta, ...task } = result as Record<string, unknown>;
  return {
    ...message,
    result: { resultType: "complete", content: [], _meta: { ...(_meta as object), [CARRIED_TASK]: task } },
  };
}

/** The task a tools/call result carries (see {@link carryTaskResults}), or undefined for a tool's own result. */
export function carriedTask(result: unknown): ModernTask | undefined {
  const meta = (result as { _meta?: Record<string, unknown> } | null)?._meta;
  const task = meta?.[CARRIED_TASK];
  if (typeof task !== "object" || task === null) return undefined;
  const { taskId, status } = task as Partial<ModernTask>;
  if (typeof taskId !== "string" || typeof status !== "string") {
    throw new ProtocolError(
      INTERNAL_ERROR,
      `The server answered tools/call with a task without a taskId or status: ${JSON.stringify(task)}`,
    );
  }
  return task as ModernTask;
}

/** What driving a task needs: the Client, the adapter's handlers, the call's deadline and signal. */
export interface TaskDrive {
  readonly client: Client;
  readonly handlers: MCPEngineConnectRequest["requestHandlers"];
  /** The whole task's budget in ms, counted from `started` (the call's `timeout`). */
  readonly timeoutMs: number;
  readonly started: number;
  readonly now: () => number;
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs a task the server created to its end and returns the tool's result. A task given up on
 * (the call's timeout, its signal, a failed handler) is cancelled on the server, so it stops
 * working for nobody, and the call fails as the Client's own timeout or abort would.
 */
export async function driveTask(created: ModernTask, drive: TaskDrive): Promise<unknown> {
  const { taskId } = created;
  const stop = new AbortController();
  const remaining = (): number => drive.timeoutMs - (drive.now() - drive.started);
  const timer = setTimeout(
    () => {
      stop.abort(
        new SdkError(SdkErrorCode.RequestTimeout, `Task "${taskId}" did not finish within ${drive.timeoutMs} ms`),
      );
    },
    Math.max(0, remaining()),
  );
  const onAbort = (): void => {
    stop.abort(new SdkError(SdkErrorCode.RequestTimeout, `The call running as task "${taskId}" was aborted`));
  };
  drive.signal?.addEventListener("abort", onAbort, { once: true });
  if (drive.signal?.aborted === true) onAbort();
  const answered = new Set<string>();
  let task = created;
  let ended = false;
  try {
    for (;;) {
      ended = task.status === "completed" || task.status === "failed" || task.status === "cancelled";
      if (task.status === "completed") return completedResult(task);
      if (task.status === "failed") {
        const error = task.error ?? { code: INTERNAL_ERROR, message: "the task failed without saying why" };
        throw new ProtocolError(error.code, error.message, error.data);
      }
      if (task.status === "cancelled") {
        throw new ProtocolError(
          INTERNAL_ERROR,
          `The server cancelled task "${taskId}"${task.statusMessage === undefined ? "" : `: ${task.statusMessage}`}`,
        );
      }
      if (task.status === "input_required" && task.inputRequests !== undefined) {
        await answerInputs(task, answered, drive, stop.signal);
      } else {
        await pause(pollInterval(task.pollIntervalMs), stop.signal);
      }
      task = await request(drive.client, "tasks/get", { taskId }, stop.signal);
    }
  } catch (error) {
    if (!ended) void cancelTask(drive.client, taskId);
    throw stop.signal.aborted ? stop.signal.reason : error;
  } finally {
    clearTimeout(timer);
    drive.signal?.removeEventListener("abort", onAbort);
  }
}

/** Answers the requests the task is waiting for (each key once) and sends the answers with tasks/update. */
async function answerInputs(
  task: ModernTask,
  answered: Set<string>,
  drive: TaskDrive,
  signal: AbortSignal,
): Promise<void> {
  const inputResponses: Record<string, unknown> = {};
  for (const [key, input] of Object.entries(task.inputRequests ?? {})) {
    if (answered.has(key)) continue;
    const handler = drive.handlers[input.method];
    if (handler === undefined) {
      throw new ProtocolError(
        INTERNAL_ERROR,
        `Task "${task.taskId}" asks for ${input.method}, which this client has no handler for (pass the matching option, such as onElicitation or onSampling)`,
      );
    }
    try {
      inputResponses[key] = await handler(input.params ?? {}, { signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw new ProtocolError(INTERNAL_ERROR, `The client's ${input.method} handler failed: ${describeCause(error)}`);
    }
    answered.add(key);
  }
  if (Object.keys(inputResponses).length === 0) {
    // Every request was answered already; the server has not moved on yet.
    await pause(pollInterval(task.pollIntervalMs), signal);
    return;
  }
  await request(drive.client, "tasks/update", { taskId: task.taskId, inputResponses }, signal);
}

function completedResult(task: ModernTask): Record<string, unknown> {
  if (typeof task.result !== "object" || task.result === null) {
    throw new ProtocolError(INTERNAL_ERROR, `Task "${task.taskId}" completed without a result`);
  }
  return task.result as Record<string, unknown>;
}

async function request<T>(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<T> {
  return (await client.request({ method, params } as never, JSON_OBJECT_SCHEMA, { signal })) as T;
}

/** Best effort: a task nobody waits for is cancelled; if that fails, its `ttlMs` ends it on the server. */
export async function cancelTask(client: Client, taskId: string): Promise<void> {
  try {
    await client.request({ method: "tasks/cancel", params: { taskId } } as never, JSON_OBJECT_SCHEMA, {
      timeout: 10_000,
    });
  } catch {
    // Nothing more to do: the connection may be gone, and the server drops the task after its ttl.
  }
}

function pollInterval(hint: number | undefined): number {
  if (hint === undefined || !Number.isFinite(hint)) return DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, hint));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
