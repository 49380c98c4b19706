import type { Worker } from "node:worker_threads";
import { describeCause, type Logger } from "@mcp-tool-adapter/core";
import { cpuTimeLimitError, memoryLimitError, sandboxFailure, totalTimeLimitError } from "./limit-errors.js";
import type { ResolvedSandboxLimits } from "./limits.js";
import { RunMeter } from "./run-meter.js";
import type { CodeRunError, CodeRunResult, ToolCallOutcome } from "./run-types.js";
import { cpuClockKind, hostReadsCpu, type CpuClockKind } from "./cpu-clock.js";
import { createSandboxWorkers, type SandboxWorkers } from "./sandbox-workers.js";
import type { HostMessage, RunMessage, WorkerMessage } from "./worker-protocol.js";

export interface WorkerRunRequest {
  readonly source: string;
  /** The API: group -> method -> the id `callTool` receives. */
  readonly api: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The one bridge out of the sandbox, run on the host's thread. Should not throw; a throw is a failed call ("handler_error"). */
  readonly callTool: (id: string, args: unknown, signal: AbortSignal) => Promise<ToolCallOutcome>;
  readonly limits: ResolvedSandboxLimits;
  readonly quickjsVariant?: string | undefined;
  /** Where the run's worker comes from (a warm one when idle); default a new worker ended with the run. */
  readonly workers?: SandboxWorkers | undefined;
  /** Where the worker's entry is, without `workers`; default the package's own (`#sandbox-worker`). */
  readonly workerEntry?: URL | undefined;
  /** Monotonic clock, ms, for the run's duration and its total time. */
  readonly now: () => number;
  readonly signal?: AbortSignal | undefined;
  readonly logger?: Logger | undefined;
}

/**
 * Runs one program in a worker thread of its own (no other run shares it while it runs), and hands
 * the thread back to `workers` when the program ended by itself, or terminates it when the run was
 * ended from outside. The host's thread only answers messages, so a program that spins inside one slow built-in call
 * (which QuickJS's interrupt handler never sees) cannot block it: a watchdog here reads the
 * worker's CPU clock from shared memory and terminates the thread past `cpuTimeMs`, as it does
 * past `totalTimeMs` or at the caller's abort. Never throws.
 */
export function runInWorker(request: WorkerRunRequest): Promise<CodeRunResult> {
  return new WorkerRun(request).finished;
}

/** The watchdog's shortest wait between two readings of the CPU clock. */
const CPU_CHECK_FLOOR_MS = 5;
/**
 * How far past `cpuTimeMs` the watchdog lets the worker's clock run before it ends the thread. The
 * interpreter's own check stops an ordinary loop at `cpuTimeMs` with its logs; the watchdog is for
 * the program stuck in one built-in call. The margin covers the few milliseconds by which two
 * threads' `performance.timeOrigin` disagree, so the watchdog never ends a run the program still had time for.
 */
const WATCHDOG_MARGIN_MS = 50;

class WorkerRun {
  readonly finished: Promise<CodeRunResult>;
  readonly #request: WorkerRunRequest;
  readonly #started: number;
  readonly #meter = new RunMeter();
  readonly #calls = new AbortController();
  readonly #logs: string[] = [];
  #toolCalls = 0;
  #worker: Worker | undefined;
  #cpuClock: CpuClockKind = "wall";
  #workers: SandboxWorkers | undefined;
  #cpuTimer: NodeJS.Timeout | undefined;
  #totalTimer: NodeJS.Timeout | undefined;
  #settled = false;
  #resolve!: (result: CodeRunResult) => void;

  constructor(request: WorkerRunRequest) {
    this.#request = request;
    this.#started = request.now();
    this.finished = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    const signal = request.signal;
    if (signal?.aborted === true) {
      this.#cancel();
      return;
    }
    signal?.addEventListener("abort", this.#cancel, { once: true });
    this.#start();
  }

  #start(): void {
    const { limits } = this.#request;
    const workers =
      this.#request.workers ??
      createSandboxWorkers({ keepWarmMs: 0, memoryBytes: limits.memoryBytes, entry: this.#request.workerEntry });
    this.#workers = workers;
    try {
      const worker = workers.acquire();
      this.#worker = worker;
      this.#cpuClock = cpuClockKind(worker);
      const run: RunMessage = {
        kind: "run",
        source: this.#request.source,
        api: this.#request.api,
        limits,
        quickjsVariant: this.#request.quickjsVariant,
        meter: this.#meter.buffer,
        cpuClock: this.#cpuClock,
      };
      worker.on("message", this.#onMessage);
      worker.on("error", this.#onError);
      worker.on("exit", this.#onExit);
      worker.postMessage(run);
    } catch (error) {
      this.#finish(this.#failure(sandboxFailure(`the sandbox worker did not start: ${describeCause(error)}`)));
      return;
    }
    void this.#watchCpu();
    this.#totalTimer = setTimeout(
      () => this.#finish(this.#failure(totalTimeLimitError(limits))),
      Math.min(limits.totalTimeMs, 2_147_483_647),
    );
    this.#totalTimer.unref();
  }

  readonly #onExit = (code: number): void => {
    this.#finish(this.#failure(sandboxFailure(`the sandbox worker exited with code ${code} before the program ended`)));
  };

  readonly #onMessage = (message: WorkerMessage): void => {
    if (this.#settled) return;
    switch (message.kind) {
      case "call":
        this.#toolCalls += 1;
        void this.#call(message.callId, message.id, message.args);
        return;
      case "log":
        this.#logs.push(message.line);
        return;
      case "done":
        // The program ended by itself and its module is gone: the worker is clean for the next run.
        this.#finish({ ...message.result, durationMs: this.#request.now() - this.#started }, "reuse");
        return;
      case "failed":
        this.#finish(this.#failure(sandboxFailure(`the sandbox did not start: ${message.message}`)));
        return;
    }
  };

  async #call(callId: number, id: string, args: unknown): Promise<void> {
    let outcome: ToolCallOutcome;
    try {
      outcome = await this.#request.callTool(id, args, this.#calls.signal);
    } catch (error) {
      outcome = { ok: false, error: describeCause(error), errorKind: "handler_error" };
    }
    if (this.#settled) return;
    const answer: HostMessage = { kind: "outcome", callId, outcome };
    try {
      this.#worker?.postMessage(answer);
    } catch (error) {
      // An outcome that cannot be cloned (a server's value no JSON holds) is a failed call.
      const failed: HostMessage = {
        kind: "outcome",
        callId,
        outcome: {
          ok: false,
          error: `the tool's result could not be passed on (${describeCause(error)})`,
          errorKind: "handler_error",
        },
      };
      this.#worker?.postMessage(failed);
    }
  }

  readonly #onError = (error: Error): void => {
    const code = (error as { code?: unknown }).code;
    this.#finish(
      this.#failure(
        code === "ERR_WORKER_OUT_OF_MEMORY"
          ? memoryLimitError(this.#request.limits)
          : sandboxFailure(`the sandbox worker failed: ${describeCause(error)}`),
      ),
    );
  };

  /**
   * Reads the worker's CPU clock, and again when the budget could next run out (CPU time never
   * runs faster than wall time on one thread, so the wait is never too long).
   */
  async #watchCpu(): Promise<void> {
    if (this.#settled) return;
    const worker = this.#worker;
    if (worker === undefined) return;
    const budget = this.#request.limits.cpuTimeMs + WATCHDOG_MARGIN_MS;
    let now: number;
    try {
      now = await hostReadsCpu(this.#cpuClock, worker);
    } catch {
      // The thread is gone (its exit ends the run) or cannot be read this once: look again soon.
      now = Number.NaN;
    }
    if (this.#endedMeanwhile()) return;
    const used = Number.isNaN(now) ? 0 : this.#meter.cpuUsedMs(now);
    if (used > budget) {
      this.#finish(this.#failure(cpuTimeLimitError(this.#request.limits)));
      return;
    }
    this.#cpuTimer = setTimeout(() => void this.#watchCpu(), Math.max(budget - used, CPU_CHECK_FLOOR_MS));
    this.#cpuTimer.unref();
  }

  /** Read through a method: the run may end while the watchdog awaits the clock. */
  #endedMeanwhile(): boolean {
    return this.#settled;
  }

  readonly #cancel = (): void => {
    this.#finish(
      this.#failure({
        code: "program_error",
        message: `the run was cancelled (${describeCause(this.#request.signal?.reason)})`,
      }),
    );
  };

  #failure(error: CodeRunError): CodeRunResult {
    return {
      ok: false,
      error,
      logs: [...this.#logs],
      droppedLogLines: this.#meter.droppedLogLines(),
      toolCalls: this.#toolCalls,
      durationMs: this.#request.now() - this.#started,
    };
  }

  /**
   * The first outcome wins. A worker whose program ended by itself goes back to the workers; any
   * other is terminated, and gone (exited) before the run resolves.
   */
  #finish(result: CodeRunResult, worker: "reuse" | "end" = "end"): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#cpuTimer);
    clearTimeout(this.#totalTimer);
    this.#request.signal?.removeEventListener("abort", this.#cancel);
    this.#calls.abort(new Error("the program ended"));
    const thread = this.#worker;
    if (thread === undefined) {
      this.#resolve(result);
      return;
    }
    thread.off("message", this.#onMessage);
    thread.off("error", this.#onError);
    thread.off("exit", this.#onExit);
    if (worker === "reuse" && this.#workers !== undefined) {
      void this.#workers.release(thread).then(() => this.#resolve(result));
      return;
    }
    // A worker that fails as it ends is not the host's error: it is gone either way.
    thread.on("error", () => {});
    thread.terminate().then(
      () => this.#resolve(result),
      (error: unknown) => {
        this.#request.logger?.warn?.("code-mode: stopping the sandbox worker failed", { error: describeCause(error) });
        this.#resolve(result);
      },
    );
  }
}
