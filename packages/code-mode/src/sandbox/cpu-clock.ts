import type { Worker } from "node:worker_threads";
import { sharedNow } from "./run-meter.js";

/**
 * Which clock a program's CPU budget runs on. Node 24 (and any Node with `process.threadCpuUsage`
 * and `worker.cpuUsage`) has a per-thread CPU clock: the sandbox thread's own CPU time, which
 * waiting for a core on a loaded machine does not advance. Node 20 and 22 have none; there the
 * budget is wall time while the interpreter runs (tool calls excluded), shared by the threads.
 */
export type CpuClockKind = "thread-cpu" | "wall";

interface ThreadCpuProcess {
  threadCpuUsage?: () => { user: number; system: number };
}

interface CpuUsageWorker {
  cpuUsage?: () => Promise<{ user: number; system: number }>;
}

/** The clock this Node offers: thread CPU when both the sandbox thread and the host can read it. */
export function cpuClockKind(worker: Worker): CpuClockKind {
  const threadCpu = typeof (process as ThreadCpuProcess).threadCpuUsage === "function";
  const hostReadable = typeof (worker as CpuUsageWorker).cpuUsage === "function";
  return threadCpu && hostReadable ? "thread-cpu" : "wall";
}

/** The clock's reading on the sandbox thread, ms. */
export function sandboxCpuNow(kind: CpuClockKind): () => number {
  const usage = (process as ThreadCpuProcess).threadCpuUsage;
  if (kind === "wall" || usage === undefined) return sharedNow;
  return () => {
    const { user, system } = usage();
    return (user + system) / 1000;
  };
}

/** The same clock read by the host for the sandbox's thread, ms (the worker's CPU, read without its help). */
export async function hostReadsCpu(kind: CpuClockKind, worker: Worker): Promise<number> {
  const usage = (worker as CpuUsageWorker).cpuUsage;
  if (kind === "wall" || usage === undefined) return sharedNow();
  const { user, system } = await usage.call(worker);
  return (user + system) / 1000;
}
