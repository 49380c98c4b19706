import { startIpcWorker } from "./ipc-worker.js";

export interface WorkerOptions {
  /** Extra node flags, e.g. --expose-gc. */
  nodeArgs?: readonly string[];
  /** Stop the worker (and fail) after this long. Default 5 minutes. */
  timeoutMs?: number;
}

/** A one-shot worker: it answers a single "run" command with its measurement. */
export interface RunCommand<Result> {
  run: { params: Record<string, never>; result: Result };
}

/**
 * Runs one measurement in a fresh node process, so its memory figures belong to that
 * measurement alone: the worker (serving `run` with serveIpcCommands) gets `input` as JSON in
 * argv, answers once, and is stopped, with everything it started.
 */
export async function runWorker<Result>(
  fileName: string,
  input: unknown,
  options: WorkerOptions = {},
): Promise<Result> {
  const worker = await startIpcWorker<RunCommand<Result>>(fileName, input, {
    name: `bench worker ${fileName}`,
    ...(options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs }),
    commandTimeoutMs: options.timeoutMs ?? 300_000,
  });
  try {
    return await worker.request("run", {});
  } finally {
    await worker.close();
  }
}
