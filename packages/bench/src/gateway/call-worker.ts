import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallJob, CallJobResult } from "./call-job.js";

/**
 * One side of one round in a fresh process: the SDK 1.x Client calling `echo` on `job.target`
 * (server-everything directly, or the gateway in front of it), untimed warm-up, then sequential
 * calls timed one by one, then calls kept `inFlight` at a time. Prints a CallJobResult as JSON.
 */
const job = JSON.parse(process.argv[2] ?? "{}") as CallJob;

function transportFor(target: CallJob["target"]): Transport {
  if (target.kind === "http") return new StreamableHTTPClientTransport(new URL(target.url));
  return new StdioClientTransport({
    command: target.command,
    args: [...target.args],
    env: { ...(process.env as Record<string, string>) },
    stderr: "ignore",
  });
}

const client = new Client({ name: "gateway-bench", version: "1" });
await client.connect(transportFor(job.target));
let sequence = 0;
const call = async (): Promise<void> => {
  sequence += 1;
  const result = await client.callTool({ name: "echo", arguments: { message: `call ${sequence}` } });
  if (result.isError === true) throw new Error(`gateway bench: echo failed: ${JSON.stringify(result.content)}`);
};

for (let i = 0; i < job.warmupCalls; i += 1) await call();

const latenciesUs: number[] = [];
const sequentialCpu = process.cpuUsage();
for (let i = 0; i < job.sequentialCalls; i += 1) {
  const started = performance.now();
  await call();
  latenciesUs.push((performance.now() - started) * 1000);
}
const sequentialCpuUsed = process.cpuUsage(sequentialCpu);

let remaining = job.concurrentCalls;
const concurrentStarted = performance.now();
await Promise.all(
  Array.from({ length: Math.min(job.inFlight, job.concurrentCalls) }, async () => {
    while (remaining > 0) {
      remaining -= 1;
      await call();
    }
  }),
);
const concurrentMs = performance.now() - concurrentStarted;
await client.close();

latenciesUs.sort((a, b) => a - b);
const result: CallJobResult = {
  p50Us: latenciesUs[Math.floor(latenciesUs.length / 2)] ?? Number.NaN,
  cpuUsPerCall: (sequentialCpuUsed.user + sequentialCpuUsed.system) / job.sequentialCalls,
  concurrentCallsPerSecond: (job.concurrentCalls * 1000) / concurrentMs,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
