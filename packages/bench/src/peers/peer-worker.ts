/**
 * One side of the peer comparison in a fresh Node process (issue 17's method): import the library,
 * connect, warm up, then sequential calls and calls with many in flight, heap after GC, and listing
 * a large server. Runs as plain JavaScript (bundled by build-peer-worker.ts, libraries left
 * external), so every library loads its published build, as in a user's process.
 * Input: the job as JSON in argv[2]. Output: the result as JSON after RESULT_MARKER on stdout.
 */
import { median, quantile } from "../stats.js";
import { currentRssMb, heapAfterGcMb, peakRssMb, resetPeakRss } from "../workers/memory.js";
import { ENGINE_LOADERS, PEER_LOADERS } from "./clients/index.js";
import type { PeerClient } from "./peer-client.js";
import {
  RESULT_MARKER,
  type ImportProbe,
  type ImportProbeJob,
  type ImportProbeResult,
  type PeerCall,
  type PeerJob,
  type PeerSequentialResult,
  type PeerSideJob,
  type PeerSideResult,
} from "./peer-job.js";

/** server-everything's echo, the call of issue 17's comparison. */
const EVERYTHING_ECHO: PeerCall = { tool: "echo", args: { message: "hello from the bench" } };
const LOADERS = { ...PEER_LOADERS, ...ENGINE_LOADERS };

const PROBES: Readonly<Record<ImportProbe, () => Promise<unknown>>> = {
  "adapter-package": () => import("@mcp-tool-adapter/adapter"),
  "sdk-client": () => import("@modelcontextprotocol/sdk/client/index.js"),
};

function cpuMicrosSince(before: NodeJS.CpuUsage): number {
  const spent = process.cpuUsage(before);
  return spent.user + spent.system;
}

/** `calls` calls with `inFlight` always outstanding: calls per second, and client CPU per call. */
async function concurrent(client: PeerClient, call: PeerCall, calls: number, inFlight: number) {
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started < calls) {
      started += 1;
      await client.call(call.tool, call.args);
    }
  };
  const cpu = process.cpuUsage();
  const begin = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, calls) }, lane));
  const seconds = (performance.now() - begin) / 1000;
  return { callsPerSecond: calls / seconds, cpuMicros: cpuMicrosSince(cpu) / calls };
}

async function sequential(client: PeerClient, call: PeerCall, calls: number) {
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i += 1) {
    const begin = performance.now();
    await client.call(call.tool, call.args);
    samples.push(performance.now() - begin);
  }
  const cpuMicros = cpuMicrosSince(cpu) / calls;
  samples.sort((a, b) => a - b);
  return { p50Ms: median(samples), p99Ms: quantile(samples, 0.99), cpuMicros };
}

async function runSide(job: PeerSideJob): Promise<PeerSideResult | PeerSequentialResult> {
  const importStarted = performance.now();
  const createClient = await LOADERS[job.side](job.target.kind);
  const call = job.call ?? EVERYTHING_ECHO;
  const importMs = performance.now() - importStarted;

  const client = createClient(job.target);
  const connectStarted = performance.now();
  await client.connect();
  const connectMs = performance.now() - connectStarted;
  try {
    for (let i = 0; i < job.warmupCalls; i += 1) await client.call(call.tool, call.args);
    const heapAfterWarmupMb = await heapAfterGcMb();
    const seq = await sequential(client, call, job.sequentialCalls);
    if (job.stage === "sequential") {
      const { p50Ms, p99Ms, cpuMicros } = seq;
      return {
        kind: "sequential",
        side: job.side,
        node: process.version,
        p50Ms,
        p99Ms,
        sequentialCpuMicros: cpuMicros,
      };
    }
    const conc = await concurrent(client, call, job.concurrentCalls, job.inFlight);
    const heapAfterCallsMb = await heapAfterGcMb();
    // The same calls again: what the first run left for good (optimized code, a connection per
    // call in flight) is paid by now, so only what grows with the number of calls shows here.
    for (let i = 0; i < job.sequentialCalls; i += 1) await client.call(call.tool, call.args);
    await concurrent(client, call, job.concurrentCalls, job.inFlight);
    const heapAfterRepeatMb = await heapAfterGcMb();
    const listing: Partial<Awaited<ReturnType<typeof listAll>>> =
      job.listTarget === undefined ? {} : await listAll(createClient(job.listTarget));
    if (listing.toolCount !== job.expectedTools) {
      throw new Error(`${job.side}: listed ${listing.toolCount} tools, the server has ${job.expectedTools}`);
    }
    return {
      kind: "side",
      side: job.side,
      node: process.version,
      importMs,
      connectMs,
      heapAfterWarmupMb,
      heapAfterCallsMb,
      heapAfterRepeatMb,
      p50Ms: seq.p50Ms,
      p99Ms: seq.p99Ms,
      sequentialCpuMicros: seq.cpuMicros,
      concurrentCpuMicros: conc.cpuMicros,
      callsPerSecond: conc.callsPerSecond,
      ...listing,
    };
  } finally {
    await client.close();
  }
}

/**
 * A second connection, to the generated server: connect and list every tool, timed together,
 * because LangChain and Mastra list the tools as part of connecting (the listing cannot be
 * timed apart from their connect); the handshake is small next to 5,000 tools.
 * Memory: the kernel's own high-water mark (VmHWM, exact, no sampling), reset right before the
 * listing, so it is the process's peak resident memory while listing. That absolute peak is the
 * judged figure; its rise above the RSS at the start is reported beside it, but it swings with
 * how much heap the side's earlier work left committed (a side whose imports already grew V8's
 * young generation to its full size shows that growth before the listing, not during it).
 */
async function listAll(client: PeerClient): Promise<{
  listMs: number;
  listCpuMs: number;
  listPeakRssMb?: number;
  listRssRiseMb?: number;
  toolCount: number;
}> {
  await heapAfterGcMb();
  const peakReset = resetPeakRss();
  const rssBefore = currentRssMb();
  const cpu = process.cpuUsage();
  const begin = performance.now();
  try {
    await client.connect();
    const toolCount = await client.listAll();
    const listMs = performance.now() - begin;
    const listCpuMs = cpuMicrosSince(cpu) / 1000;
    if (!peakReset) return { listMs, listCpuMs, toolCount };
    const peak = peakRssMb();
    return { listMs, listCpuMs, toolCount, listPeakRssMb: peak, listRssRiseMb: peak - rssBefore };
  } finally {
    await client.close();
  }
}

async function runProbe(job: ImportProbeJob): Promise<ImportProbeResult> {
  const started = performance.now();
  await PROBES[job.probe]();
  return { kind: "import", probe: job.probe, node: process.version, importMs: performance.now() - started };
}

const raw = process.argv[2];
if (raw === undefined) throw new Error("peer worker: missing JSON job argument");
const job = JSON.parse(raw) as PeerJob;
const result = job.kind === "side" ? await runSide(job) : await runProbe(job);
process.stdout.write(`${RESULT_MARKER}${JSON.stringify(result)}\n`);
// Some libraries keep timers or handles alive after close; the measurement is done.
process.exit(0);
