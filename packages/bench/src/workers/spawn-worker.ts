import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** Node flags that run our TypeScript from source: the tsx loader and the workspace source condition. */
export function typeScriptNodeArgs(): string[] {
  return ["--import", import.meta.resolve("tsx"), "--conditions=@mcp-tool-adapter/source"];
}

/** `--cpu-prof*` flags given to the bench itself are passed on, so a profile covers the workers too. */
function inheritedProfilingArgs(): string[] {
  return process.execArgv.filter((arg) => arg.startsWith("--cpu-prof") || arg.startsWith("--heap-prof"));
}

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
  const child = spawn(
    process.execPath,
    [...typeScriptNodeArgs(), ...inheritedProfilingArgs(), ...(options.nodeArgs ?? []), workerPath(fileName), JSON.stringify(input)],
    { stdio: ["ignore", "inherit", "pipe", "ipc"] },
  );
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

/** Worker side: the JSON input the parent passed. */
export function workerInput(): unknown {
  const raw = process.argv[2];
  if (raw === undefined) throw new Error("bench worker: missing JSON input argument; run it through runWorker()");
  return JSON.parse(raw);
}

/** Worker side: sends the one answer and waits until it is flushed. */
export function reply(result: unknown): Promise<void> {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error("bench worker: no IPC channel; run it through runWorker()");
  return new Promise((resolve, reject) => {
    send(result, undefined, {}, (error: Error | null) => (error === null ? resolve() : reject(error)));
  });
}
