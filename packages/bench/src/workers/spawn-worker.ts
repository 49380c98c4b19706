import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { leakMarkerEnv } from "@mcp-tool-adapter/test-servers";

/** Node flags that run our TypeScript from source: the tsx loader and the workspace source condition. */
export function typeScriptNodeArgs(): string[] {
  return ["--import", import.meta.resolve("tsx"), "--conditions=@mcp-tool-adapter/source"];
}

/** `--cpu-prof*` flags given to the bench itself are passed on, so a profile covers the workers too. */
function inheritedProfilingArgs(): string[] {
  return process.execArgv.filter((arg) => arg.startsWith("--cpu-prof") || arg.startsWith("--heap-prof"));
}

/** Every node flag a worker needs: TypeScript from source, inherited profiling flags, then `extra`. */
export function workerNodeArgs(extra: readonly string[] = []): string[] {
  return [...typeScriptNodeArgs(), ...inheritedProfilingArgs(), ...extra];
}

/**
 * The worker's environment: ours plus the leak marker, so the end-of-run leftover check finds a
 * worker (and whatever inherits its environment) even after it was re-parented.
 */
export function workerEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, ...leakMarkerEnv() };
}

/** A worker file name relative to src/workers/, or an absolute path. */
export function workerPath(fileName: string): string {
  return fileURLToPath(new URL(fileName, import.meta.url));
}

export interface WorkerOptions {
  /** Extra node flags, e.g. --expose-gc. */
  nodeArgs?: readonly string[];
  /** Kill the worker (and fail) after this long. Default 5 minutes. */
  timeoutMs?: number;
}

const STDERR_TAIL_CHARS = 8_000;

/**
 * Runs one measurement in a fresh node process, so its memory figures belong to that
 * measurement alone. The worker gets `input` as JSON in argv and answers once over IPC.
 */
export function runWorker<Result>(fileName: string, input: unknown, options: WorkerOptions = {}): Promise<Result> {
  const child = spawn(process.execPath, [...workerNodeArgs(options.nodeArgs), workerPath(fileName), JSON.stringify(input)], {
    stdio: ["ignore", "inherit", "pipe", "ipc"],
    env: workerEnvironment(),
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  return new Promise<Result>((resolve, reject) => {
    let answer: { result: Result } | undefined;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bench worker ${fileName} did not finish within ${options.timeoutMs ?? 300_000} ms\n${stderr}`));
    }, options.timeoutMs ?? 300_000);
    child.on("message", (message) => {
      answer = { result: message as Result };
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0 && answer !== undefined) resolve(answer.result);
      else reject(new Error(`bench worker ${fileName} failed (exit code ${String(code)}, signal ${String(signal)})${answer === undefined ? " without an answer" : ""}:\n${stderr}`));
    });
  });
}
