/**
 * Many invokes in one process against an in-process SDK server (InMemoryTransport): heap after
 * full GC once warmed up and again after every invoke. Run with node --expose-gc.
 */
import { createInMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import { loadBenchClientFactory } from "../clients/create-client.js";
import type { Side } from "../interleave.js";
import { generatedInputSchema, TYPICAL_ARGUMENTS } from "../servers/generated-tools.js";
import { heapAfterGcMb } from "./memory.js";
import type { RunCommand } from "./run-worker.js";
import { serveIpcCommands } from "./serve-ipc-commands.js";
import { workerInput } from "./worker-io.js";

export interface HeapJob {
  side: Side;
  warmupInvokes: number;
  invokes: number;
}

export interface HeapResult {
  side: Side;
  heapAfterWarmupMb: number;
  heapAfterInvokesMb: number;
  invokes: number;
  invokesPerSecond: number;
}

async function measureHeap(job: HeapJob): Promise<HeapResult> {
  const server = createInMemoryTestServer({ tools: [{ name: "echo", inputSchema: generatedInputSchema(0) }] });
  const createClient = await loadBenchClientFactory(job.side);
  const client = createClient(() => server.connect());
  await client.connect();
  await client.discover();
  const args = { ...TYPICAL_ARGUMENTS };
  for (let i = 0; i < job.warmupInvokes; i += 1) await client.call("echo", args);
  const heapAfterWarmupMb = await heapAfterGcMb();
  const started = performance.now();
  for (let i = 0; i < job.invokes; i += 1) await client.call("echo", args);
  const seconds = (performance.now() - started) / 1000;
  const heapAfterInvokesMb = await heapAfterGcMb();
  await client.close();
  await server.close();
  return {
    side: job.side,
    heapAfterWarmupMb,
    heapAfterInvokesMb,
    invokes: job.invokes,
    invokesPerSecond: job.invokes / seconds,
  };
}

const job = workerInput() as HeapJob;
serveIpcCommands<RunCommand<HeapResult>>({ run: () => measureHeap(job) });
