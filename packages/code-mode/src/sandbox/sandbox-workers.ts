import { Worker } from "node:worker_threads";
import { describeCause, type Logger } from "@mcp-tool-adapter/core";

export interface SandboxWorkersOptions {
  /** How long a worker whose run ended cleanly is kept for the next run, ms; 0 ends each worker with its run. */
  readonly keepWarmMs: number;
  /** The sandbox's memory limit: each worker's own JavaScript heap is sized from it. */
  readonly memoryBytes: number;
  /** Where the worker's entry is; default the package's own (`#sandbox-worker`). */
  readonly entry?: URL | undefined;
  readonly logger?: Logger | undefined;
}

/**
 * The sandbox worker threads of one code mode: a run takes the warm worker when one is idle (a
 * worker thread and its imports cost most of a cold run's start), else starts a new one. A run
 * that ended cleanly hands its worker back; a run ended from outside (a limit, an abort, a failure)
 * terminates its worker instead. An idle worker does not keep the process alive (unref), and ends
 * after `keepWarmMs` or at `close()`.
 */
export interface SandboxWorkers {
  /** A worker for one run; throws when a new one cannot start. */
  acquire(): Worker;
  /**
   * The run ended cleanly: keep the worker warm, or end it when one is kept already or the set is
   * closed; resolves once it is kept or gone.
   */
  release(worker: Worker): Promise<void>;
  /** Ends the idle worker; later releases end theirs. Runs in flight go on. */
  close(): void;
}

export function createSandboxWorkers(options: SandboxWorkersOptions): SandboxWorkers {
  return new WarmSandboxWorkers(options);
}

const MIB = 1024 * 1024;

class WarmSandboxWorkers implements SandboxWorkers {
  readonly #options: SandboxWorkersOptions;
  #idle: Worker | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: SandboxWorkersOptions) {
    this.#options = options;
  }

  acquire(): Worker {
    const idle = this.#idle;
    if (idle === undefined) return this.#start();
    this.#forgetIdle(idle);
    idle.ref();
    return idle;
  }

  release(worker: Worker): Promise<void> {
    if (this.#closed || this.#options.keepWarmMs <= 0 || this.#idle !== undefined) return this.#end(worker);
    this.#idle = worker;
    worker.unref();
    // An idle worker that fails or exits is dropped; its error is not the host's.
    worker.on("error", this.#onIdleGone);
    worker.on("exit", this.#onIdleGone);
    this.#idleTimer = setTimeout(() => this.#endIdle(), Math.min(this.#options.keepWarmMs, 2_147_483_647));
    this.#idleTimer.unref();
    return Promise.resolve();
  }

  close(): void {
    this.#closed = true;
    this.#endIdle();
  }

  #start(): Worker {
    const entry = this.#options.entry ?? new URL(import.meta.resolve("#sandbox-worker"));
    return new Worker(workerScript(entry), {
      // The QuickJS heap is WebAssembly memory, capped by the sandbox; this bounds the worker's own
      // JavaScript heap (the glue, strings copied out of the sandbox).
      resourceLimits: { maxOldGenerationSizeMb: 64 + Math.ceil((4 * this.#options.memoryBytes) / MIB) },
    });
  }

  readonly #onIdleGone = (): void => {
    const idle = this.#idle;
    if (idle !== undefined) this.#forgetIdle(idle);
  };

  #forgetIdle(idle: Worker): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    idle.off("error", this.#onIdleGone);
    idle.off("exit", this.#onIdleGone);
    this.#idle = undefined;
  }

  #endIdle(): void {
    const idle = this.#idle;
    if (idle === undefined) return;
    this.#forgetIdle(idle);
    void this.#end(idle);
  }

  async #end(worker: Worker): Promise<void> {
    try {
      await worker.terminate();
    } catch (error) {
      this.#options.logger?.warn?.("code-mode: stopping a sandbox worker failed", { error: describeCause(error) });
    }
  }
}

/**
 * What the Worker runs: the entry itself, built. From source, as this repository's tests run, the
 * entry is TypeScript: a two-line bootstrap registers tsx in the worker (Node 20's `--import` in a
 * worker's execArgv loads no hooks) and imports it, with the host's export conditions inherited.
 */
function workerScript(entry: URL): URL {
  if (!entry.pathname.endsWith(".ts")) return entry;
  const bootstrap = `const { register } = await import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))});
register();
await import(${JSON.stringify(entry.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
