import { MCPProtocolError } from "@mcp-tool-adapter/core";
import { describeCause } from "../errors.js";
import { RpcCode } from "../rpc-error.js";

/** How long a finished task is kept for the server to read when it asked for no ttl. */
const DEFAULT_TTL_MS = 300_000;
/** What we suggest between the server's tasks/get polls. */
const POLL_INTERVAL_MS = 500;
const RELATED_TASK = "io.modelcontextprotocol/related-task";

type TaskStatus = "working" | "completed" | "failed" | "cancelled";

/** A task as tasks/get and tasks/list show it (MCP 2025-11-25). */
interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
}

interface ClientTask {
  view: TaskView;
  readonly controller: AbortController;
  readonly settled: Promise<unknown>;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The client side of MCP tasks: a server that asks for its elicitation or sampling request to run
 * as a task (`params.task`, allowed by our `tasks.requests` capability) gets a CreateTaskResult at
 * once; the host's handler runs meanwhile, and the server follows it with tasks/get, reads its
 * answer with tasks/result (which waits for it), lists with tasks/list, and stops it with
 * tasks/cancel (the handler's signal aborts). A task is forgotten `ttl` ms after it ends.
 */
export class ClientTasks {
  readonly #tasks = new Map<string, ClientTask>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Starts `run` as a task (its signal aborts on tasks/cancel) and returns the CreateTaskResult. */
  create(run: (signal: AbortSignal) => Promise<unknown>, requestedTtl: number | undefined): { task: TaskView } {
    const at = new Date(this.#now()).toISOString();
    const ttl =
      requestedTtl !== undefined && Number.isSafeInteger(requestedTtl) && requestedTtl > 0
        ? requestedTtl
        : DEFAULT_TTL_MS;
    const view: TaskView = {
      taskId: globalThis.crypto.randomUUID(),
      status: "working",
      createdAt: at,
      lastUpdatedAt: at,
      ttl,
      pollInterval: POLL_INTERVAL_MS,
    };
    const controller = new AbortController();
    const settled = Promise.resolve().then(() => run(controller.signal));
    const task: ClientTask = { view, controller, settled };
    this.#tasks.set(view.taskId, task);
    settled.then(
      () => {
        this.#finish(task, "completed");
      },
      (error: unknown) => {
        this.#finish(task, "failed", describeCause(error));
      },
    );
    return { task: { ...view } };
  }

  get(taskId: unknown): TaskView {
    return { ...this.#task(taskId).view };
  }

  /** The task's answer once it ends (the handler's result, or its error); the related-task mark in `_meta`. */
  async result(taskId: unknown): Promise<unknown> {
    const task = this.#task(taskId);
    const answer = await task.settled.catch((error: unknown) => {
      if (task.view.status === "cancelled")
        throw new MCPProtocolError(RpcCode.InvalidRequest, `Task ${task.view.taskId} was cancelled`);
      throw error;
    });
    if (task.view.status === "cancelled")
      throw new MCPProtocolError(RpcCode.InvalidRequest, `Task ${task.view.taskId} was cancelled`);
    const meta = (answer as { _meta?: Record<string, unknown> })._meta;
    return { ...(answer as object), _meta: { ...meta, [RELATED_TASK]: { taskId: task.view.taskId } } };
  }

  list(): { tasks: TaskView[] } {
    return { tasks: [...this.#tasks.values()].map((task) => ({ ...task.view })) };
  }

  cancel(taskId: unknown): TaskView {
    const task = this.#task(taskId);
    if (task.view.status !== "working") {
      throw new MCPProtocolError(
        RpcCode.InvalidParams,
        `Task ${task.view.taskId} already ended (${task.view.status}): it cannot be cancelled`,
      );
    }
    this.#finish(task, "cancelled");
    task.controller.abort(new Error(`The server cancelled task ${task.view.taskId}`));
    return { ...task.view };
  }

  /** Forgets every task and aborts those still running (the connection closed). */
  clear(): void {
    for (const task of this.#tasks.values()) {
      clearTimeout(task.timer);
      task.controller.abort(new Error("The connection closed"));
    }
    this.#tasks.clear();
  }

  #task(taskId: unknown): ClientTask {
    const task = typeof taskId === "string" ? this.#tasks.get(taskId) : undefined;
    if (task === undefined)
      throw new MCPProtocolError(
        RpcCode.InvalidParams,
        `No task ${String(taskId)} on this client (unknown or expired)`,
      );
    return task;
  }

  #finish(task: ClientTask, status: TaskStatus, statusMessage?: string): void {
    if (task.view.status !== "working") return;
    task.view = {
      ...task.view,
      status,
      lastUpdatedAt: new Date(this.#now()).toISOString(),
      ...(statusMessage === undefined ? {} : { statusMessage }),
    };
    task.timer = setTimeout(() => this.#tasks.delete(task.view.taskId), task.view.ttl);
    // A number in browsers, which have no unref (and no process to keep alive).
    (task.timer as { unref?: () => void }).unref?.();
  }
}
