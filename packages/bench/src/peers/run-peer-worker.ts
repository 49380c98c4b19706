import { spawn } from "node:child_process";
import { RESULT_MARKER, type PeerJob, type PeerResult } from "./peer-job.js";

export interface PeerWorkerOptions {
  /** The node binary every side runs on. */
  readonly node: string;
  /** The bundled worker (buildPeerBundles). */
  readonly worker: string;
  /** Extra node flags, e.g. the tsx loader to run our packages from source for a comparison. */
  readonly nodeArgs?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
}

const OUTPUT_TAIL_CHARS = 4_000;

/** The result line of a worker's stdout, or undefined when it printed none. */
export function parsePeerResult(stdout: string): PeerResult | undefined {
  const line = stdout
    .split("\n")
    .reverse()
    .find((candidate) => candidate.startsWith(RESULT_MARKER));
  return line === undefined ? undefined : (JSON.parse(line.slice(RESULT_MARKER.length)) as PeerResult);
}

/**
 * Runs one job in a fresh node process and resolves with its result. The worker leads its own
 * process group, so a timeout stops it and every server it started.
 */
export function runPeerWorker(job: PeerJob, options: PeerWorkerOptions): Promise<PeerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      options.node,
      ["--expose-gc", "--no-warnings", ...(options.nodeArgs ?? []), options.worker, JSON.stringify(job)],
      { stdio: ["ignore", "pipe", "pipe"], env: options.env, detached: true },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-OUTPUT_TAIL_CHARS);
    });
    const what = job.kind === "side" ? `the ${job.side} side` : `the ${job.probe} import probe`;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, options.timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`peer worker for ${what} could not start with ${options.node}: ${error.message}`));
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      const result = parsePeerResult(stdout);
      if (result !== undefined && code === 0) {
        resolve(result);
        return;
      }
      const ending = timedOut
        ? `was stopped after ${options.timeoutMs} ms`
        : `exited with ${signal === null ? `code ${String(code)}` : `signal ${signal}`}`;
      reject(new Error(`peer worker for ${what} ${ending} without a result; its stderr ends:\n${stderr.slice(-1500)}`));
    });
  });
}
