import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { PHASE_SIGNAL, type CallJob, type CallJobResult } from "./call-job.js";

/**
 * One side of one round in a fresh process: the SDK 1.x Client calling `echo` on `job.target`
 * (server-everything directly, or a process in front of it), untimed warm-up, then sequential
 * calls timed one by one, then calls kept `inFlight` at a time (each timed too). Prints a
 * CallJobResult as JSON.
 */
const job = JSON.parse(process.argv[2] ?? "{}") as CallJob;
/** How long the process in the middle gets to note a phase signal (it is idle then: no call is outstanding). */
const PHASE_SIGNAL_SETTLE_MS = 100;

/** The client transport, and the pid of the process it talks to when the bench knows it. */
function transportFor(target: CallJob["target"]): { transport: Transport; pid: () => number | undefined } {
  if (target.kind === "http")
    return { transport: new StreamableHTTPClientTransport(new URL(target.url)), pid: () => target.pid };
  const stdio = new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...(process.env as Record<string, string>) },
    stderr: "ignore",
  });
  return { transport: stdio, pid: () => stdio.pid ?? undefined };
}

const { transport, pid } = transportFor(job.target);
const client = new Client({ name: "gateway-bench", version: "1" });
await client.connect(transport);
const middlePid = job.markPhases === true ? pid() : undefined;
const endPhase = async (): Promise<void> => {
  if (middlePid === undefined) return;
  process.kill(middlePid, PHASE_SIGNAL);
  await sleep(PHASE_SIGNAL_SETTLE_MS);
};

let sequence = 0;
const call = async (): Promise<void> => {
  sequence += 1;
  const result = await client.callTool({ name: "echo", arguments: { message: `call ${sequence}` } });
  if (result.isError === true) throw new Error(`gateway bench: echo failed: ${JSON.stringify(result.content)}`);
};
const cpuUsed = (since: NodeJS.CpuUsage): number => {
  const { user, system } = process.cpuUsage(since);
  return user + system;
};
const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

for (let i = 0; i < job.warmupCalls; i += 1) await call();
await endPhase();

const latenciesUs: number[] = [];
const sequentialCpu = process.cpuUsage();
for (let i = 0; i < job.sequentialCalls; i += 1) {
  const started = performance.now();
  await call();
  latenciesUs.push((performance.now() - started) * 1000);
}
const sequentialCpuUs = cpuUsed(sequentialCpu);
await endPhase();

let remaining = job.concurrentCalls;
const inFlightLatenciesUs: number[] = [];
const concurrentCpu = process.cpuUsage();
const concurrentStarted = performance.now();
await Promise.all(
  Array.from({ length: Math.min(job.inFlight, job.concurrentCalls) }, async () => {
    while (remaining > 0) {
      remaining -= 1;
      const started = performance.now();
      await call();
      inFlightLatenciesUs.push((performance.now() - started) * 1000);
    }
  }),
);
const concurrentMs = performance.now() - concurrentStarted;
const concurrentCpuUs = cpuUsed(concurrentCpu);
await endPhase();
await client.close();

const result: CallJobResult = {
  p50Us: median(latenciesUs),
  cpuUsPerCall: sequentialCpuUs / job.sequentialCalls,
  concurrentCallsPerSecond: (job.concurrentCalls * 1000) / concurrentMs,
  inFlightP50Us: median(inFlightLatenciesUs),
  inFlightCpuUsPerCall: concurrentCpuUs / job.concurrentCalls,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
