import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ServerSetJob } from "../workers/server-set-worker.js";

const FLOOR_SERVER_SET = fileURLToPath(new URL("../clients/floor-server-set.mjs", import.meta.url));

/** What the floor needs of the scenario's job: how each server starts, how many, the deadline. */
export type ServerSetFloorJob = Pick<ServerSetJob, "command" | "args" | "env" | "servers" | "connectTimeoutMs">;

export interface ServerSetFloorResult {
  /** Each server connected alone (spawn, initialize, initialized), one after another. */
  readonly soloConnectMs: readonly number[];
  /** All of them connected in parallel. */
  readonly parallelConnectMs: number;
  /** This process's CPU during that parallel connect (spawns and handshakes). */
  readonly parallelConnectCpuMs: number;
}

/**
 * The floor of many servers at once, in a fresh Node process: a plain script (floor-server-set.mjs)
 * that connects the job's servers with initialize and initialized only, first each alone, then
 * all in parallel. Rejects when the script fails (a server that did not connect fails the run).
 */
export async function runServerSetFloorSide(job: ServerSetFloorJob): Promise<ServerSetFloorResult> {
  const child = spawn(process.execPath, [FLOOR_SERVER_SET, JSON.stringify(job)], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) throw new Error(`the server-set floor side exited with ${code}: ${errors.trim()}`);
  const result = JSON.parse(output) as ServerSetFloorResult;
  if (
    result.soloConnectMs.length !== job.servers ||
    !(result.parallelConnectMs > 0) ||
    !(result.parallelConnectCpuMs > 0)
  )
    throw new Error(`the server-set floor side printed an incomplete result: ${output.trim()}`);
  return result;
}
