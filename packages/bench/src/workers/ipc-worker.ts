import { spawn, type ChildProcess } from "node:child_process";
import { IpcWorkerError } from "./ipc-worker-error.js";
import { isIpcWorkerMessage, type CommandShapes, type IpcRequest } from "./ipc-protocol.js";
import { workerEnvironment, workerNodeArgs, workerPath } from "./spawn-worker.js";

export interface IpcWorkerOptions {
  /** Names the worker in errors and progress, e.g. "adapter side worker". */
  name: string;
  /** Extra node flags, e.g. --no-warnings. */
  nodeArgs?: readonly string[];
  /** How long the worker may take to load and say it is ready. Default 60 s. */
  startTimeoutMs?: number;
  /** The deadline of a command when its request gives none. Default 120 s. */
  commandTimeoutMs?: number;
  /** How long a stopping worker gets to clean up and exit before it (and its process group) is killed. Default 10 s. */
  exitGraceMs?: number;
}

/** A running worker that answers commands; see startIpcWorker. */
export interface IpcWorker<Commands extends CommandShapes<Commands>> {
  readonly name: string;
  readonly pid: number;
  /**
   * Runs `command` in the worker and resolves with its answer. Rejects with an IpcWorkerError when
   * the handler throws, the worker exits, or no answer comes within the deadline (the worker is
   * then stopped before the promise rejects).
   */
  request<Name extends keyof Commands & string>(
    command: Name,
    params: Commands[Name]["params"],
    options?: { timeoutMs?: number },
  ): Promise<Commands[Name]["result"]>;
  /**
   * Disconnects, so the worker runs its cleanup and exits; kills its whole process group if it
   * outstays the grace period. Resolves once it is gone. Safe to call more than once.
   */
  close(): Promise<void>;
}

interface PendingRequest {
  readonly command: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  readonly timer: NodeJS.Timeout;
}

interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly error?: Error;
}

const STDERR_TAIL_CHARS = 8_000;
/** After exit, how long to wait for the last stderr bytes (a grandchild may hold the pipe open). */
const STDERR_DRAIN_MS = 1_000;

/**
 * Starts `fileName` (relative to src/workers/, or absolute) in its own node process with `input`
 * as JSON in argv, and resolves once the worker's serveIpcCommands says it is ready. The worker
 * leads its own process group, so stopping it also stops whatever it started.
 */
export async function startIpcWorker<Commands extends CommandShapes<Commands>>(
  fileName: string,
  input: unknown,
  options: IpcWorkerOptions,
): Promise<IpcWorker<Commands>> {
  const child = spawn(
    process.execPath,
    [...workerNodeArgs(options.nodeArgs), workerPath(fileName), JSON.stringify(input)],
    {
      stdio: ["ignore", "inherit", "pipe", "ipc"],
      env: workerEnvironment(),
      detached: true,
    },
  );
  const worker = new ChildIpcWorker<Commands>(child, options);
  await worker.ready(options.startTimeoutMs ?? 60_000, fileName);
  return worker;
}

class ChildIpcWorker<Commands extends CommandShapes<Commands>> implements IpcWorker<Commands> {
  readonly name: string;
  readonly #child: ChildProcess;
  readonly #options: IpcWorkerOptions;
  readonly #pending = new Map<number, PendingRequest>();
  readonly #exited: Promise<ExitStatus>;
  #exitStatus: ExitStatus | undefined;
  #onReady: (() => void) | undefined;
  #stopping: Promise<void> | undefined;
  #stderr = "";
  #nextId = 1;

  constructor(child: ChildProcess, options: IpcWorkerOptions) {
    this.name = options.name;
    this.#child = child;
    this.#options = options;
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on("message", (message) => this.#receive(message));
    this.#exited = new Promise<ExitStatus>((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      // Spawning failed (no 'exit' follows). Later errors (a send on a closed channel) end in 'exit' too.
      child.on("error", (error) => {
        if (child.pid === undefined) resolve({ code: null, signal: null, error });
      });
    }).then(async (status) => {
      await this.#afterExit();
      this.#exitStatus = status;
      for (const [id, pending] of this.#pending)
        this.#settle(id, pending, () => pending.reject(this.#exitedError(pending.command, status)));
      return status;
    });
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  /** Resolves when the worker says it is ready; rejects (and stops it) when it exits or takes too long. */
  async ready(timeoutMs: number, fileName: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      new Promise<"ready">((resolve) => {
        this.#onReady = () => resolve("ready");
      }),
      this.#exited,
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.#onReady = undefined;
    if (outcome === "ready") return;
    await this.close();
    const what =
      outcome === "timeout"
        ? `did not become ready within ${timeoutMs} ms (stopped)`
        : `exited before it was ready (${describeExit(outcome)})`;
    throw new IpcWorkerError("WORKER_START_FAILED", `${this.name} (${fileName}) ${what}.`, {
      worker: this.name,
      stderrTail: this.#stderr,
    });
  }

  request<Name extends keyof Commands & string>(
    command: Name,
    params: Commands[Name]["params"],
    options: { timeoutMs?: number } = {},
  ): Promise<Commands[Name]["result"]> {
    if (this.#exitStatus !== undefined || this.#stopping !== undefined || !this.#child.connected) {
      return Promise.reject(this.#exitedError(command, this.#exitStatus, "before"));
    }
    const timeoutMs = options.timeoutMs ?? this.#options.commandTimeoutMs ?? 120_000;
    const id = this.#nextId;
    this.#nextId += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        // Stop the stuck worker first, so the error carries its whole stderr and nothing is left running.
        void this.close().then(() =>
          reject(
            new IpcWorkerError(
              "COMMAND_TIMED_OUT",
              `${this.name}: command "${command}" got no answer within ${timeoutMs} ms, so the worker was stopped.`,
              {
                worker: this.name,
                command,
                stderrTail: this.#stderr,
              },
            ),
          ),
        );
      }, timeoutMs);
      this.#pending.set(id, { command, resolve, reject, timer });
      // A send on a channel that just closed fails here; the worker's exit (or the deadline) then rejects the request.
      this.#child.send({ kind: "request", id, command, params } satisfies IpcRequest, () => undefined);
    });
  }

  close(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    if (this.#exitStatus !== undefined) return;
    if (this.#child.connected) this.#child.disconnect();
    let timer: NodeJS.Timeout | undefined;
    const exitedInTime = await Promise.race([
      this.#exited.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), this.#options.exitGraceMs ?? 10_000);
      }),
    ]);
    clearTimeout(timer);
    if (!exitedInTime) this.#killGroup();
    await this.#exited;
  }

  #receive(message: unknown): void {
    if (!isIpcWorkerMessage(message)) return;
    if (message.kind === "ready") {
      this.#onReady?.();
      return;
    }
    const pending = this.#pending.get(message.id);
    // An answer after its deadline: the caller already has the timeout error.
    if (pending === undefined) return;
    if (message.kind === "answer") {
      this.#settle(message.id, pending, () => pending.resolve(message.result));
      return;
    }
    const error = new IpcWorkerError(
      "COMMAND_FAILED",
      `${this.name}: command "${pending.command}" failed: ${message.stack ?? message.message}`,
      {
        worker: this.name,
        command: pending.command,
        stderrTail: this.#stderr,
      },
    );
    this.#settle(message.id, pending, () => pending.reject(error));
  }

  #settle(id: number, pending: PendingRequest, settle: () => void): void {
    clearTimeout(pending.timer);
    this.#pending.delete(id);
    settle();
  }

  /** Lets the last stderr bytes arrive, then ends whatever the worker left behind in its group. */
  async #afterExit(): Promise<void> {
    const stderr = this.#child.stderr;
    if (stderr !== null && !stderr.readableEnded) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => stderr.once("close", resolve)),
        new Promise((resolve) => {
          timer = setTimeout(resolve, STDERR_DRAIN_MS);
        }),
      ]);
      clearTimeout(timer);
    }
    this.#killGroup();
  }

  /** SIGKILL to the worker's process group: the worker and every process it started that stayed in it. */
  #killGroup(): void {
    const pid = this.#child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // The group is empty: everything has exited.
    }
  }

  #exitedError(command: string, status: ExitStatus | undefined, when: "while" | "before" = "while"): IpcWorkerError {
    const what =
      status === undefined || this.#stopping !== undefined ? "was stopped" : `exited (${describeExit(status)})`;
    const doing = when === "while" ? `while running command "${command}"` : `before command "${command}" could be sent`;
    return new IpcWorkerError("WORKER_EXITED", `${this.name} ${what} ${doing}.`, {
      worker: this.name,
      command,
      stderrTail: this.#stderr,
    });
  }
}

function describeExit(status: ExitStatus): string {
  if (status.error !== undefined) return `could not start: ${status.error.message}`;
  return `exit code ${String(status.code)}, signal ${String(status.signal)}`;
}
