import { everythingStdioServer, leakMarkerEnv, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import type { ServerTarget } from "../clients/bench-client.js";
import type { BenchContext } from "../context.js";
import { CpuMeter } from "../cpu-meter.js";
import { compared, plusAtMost, ratioAtLeast, ratioAtMost, type Figure } from "../figures.js";
import { alternate, perSide, SIDES, type Side } from "../interleave.js";
import { median, medianPairedRatio, summarize } from "../stats.js";
import { startSideWorkers, stopSideWorkers, type SideWorker } from "../workers/side-workers.js";

const CPU_NOTE = "user + system CPU of the side's worker process (the client; the server is another process): steadier than wall time on a busy machine";

const PROCESS_NOTE =
  "each side runs in its own long-lived worker process (timed inside it), because with both clients in one process V8 shares type feedback between the libraries and the adapter's calls measured slower than in any real deployment";

export type EverythingTransport = "stdio" | "streamable-http";

/**
 * server-everything, one transport: connect (handshake included), full tool discovery,
 * sequential echo latency and throughput with many calls in flight, adapter against raw SDK.
 * Each side runs in its own worker process; this process only orders the rounds (ABBA).
 */
export async function runEverythingScenario(transport: EverythingTransport, context: BenchContext): Promise<Figure[]> {
  if (transport === "stdio") {
    const { command, args } = everythingStdioServer();
    // The marker lets the end-of-run leftover check find a server even if its worker died first.
    return measureEverything({ kind: "stdio", command, args, env: leakMarkerEnv() }, "stdio", context);
  }
  const server = await startEverythingHttp({ mode: "streamableHttp" });
  try {
    return await measureEverything({ kind: "streamable-http", url: server.url }, "http", context);
  } finally {
    await server.stop();
  }
}

async function measureEverything(target: ServerTarget, key: "stdio" | "http", context: BenchContext): Promise<Figure[]> {
  const group = `server-everything over ${target.kind}`;
  context.progress(`${group}: starting a worker process per side`);
  const workers = await startSideWorkers({ target, phasePrefix: key, warnings: context.warnings });
  try {
    return await measureWithWorkers(workers, key, group, context);
  } finally {
    context.warnings.phase = `${key}.close`;
    await stopSideWorkers(Object.values(workers));
  }
}

async function measureWithWorkers(workers: Record<Side, SideWorker>, key: "stdio" | "http", group: string, context: BenchContext): Promise<Figure[]> {
  const { settings } = context;
  const figures: Figure[] = [];

  context.progress(`${group}: connect`);
  const connectRounds = key === "stdio" ? settings.stdioConnectRounds : settings.httpConnectRounds;
  const connectMs = perSide<number[]>(() => []);
  await alternate(connectRounds, async (side) => {
    connectMs[side].push((await workers[side].run("connect-round", { phase: `${key}.connect.${side}` })).ms);
  });
  figures.push(
    compared(
      {
        id: `${key}.connect.median`,
        group,
        label: "connect + handshake, median",
        unit: "ms",
        adapter: median(connectMs.adapter),
        raw: median(connectMs.raw),
        note: `${connectRounds} rounds per side; ${PROCESS_NOTE}`,
      },
      plusAtMost(5, "ms"),
    ),
  );

  // One long-lived client per side from here on; for stdio each has its own server process.
  for (const side of SIDES) await workers[side].run("open", { phase: `${key}.open.${side}` });

  context.progress(`${group}: discover`);
  const discoverMs = perSide<number[]>(() => []);
  const toolCounts = perSide<number>(() => 0);
  await alternate(settings.discoverRounds, async (side) => {
    const { ms, toolCount } = await workers[side].run("discover", { phase: `${key}.discover.${side}` });
    toolCounts[side] = toolCount;
    discoverMs[side].push(ms);
  });
  if (toolCounts.adapter !== toolCounts.raw) {
    throw new Error(`${group}: the adapter discovered ${toolCounts.adapter} tools but the raw SDK ${toolCounts.raw}; the comparison would be meaningless`);
  }
  figures.push(
    compared({ id: `${key}.discover.median`, group, label: `discover (${toolCounts.raw} tools), median`, unit: "ms", adapter: median(discoverMs.adapter), raw: median(discoverMs.raw) }),
  );

  context.progress(`${group}: sequential echo`);
  for (const side of SIDES) await workers[side].run("warmup", { phase: `${key}.warmup.${side}`, calls: settings.warmupCalls });
  const latencyMs = perSide<number[]>(() => []);
  const roundMedianMs = perSide<number[]>(() => []);
  const latencyCpu = perSide(() => new CpuMeter());
  const callsPerRound = Math.ceil(settings.latencyCalls / settings.latencyRounds);
  await alternate(settings.latencyRounds, async (side) => {
    const { samplesMs, cpuMicros } = await workers[side].run("latency", { phase: `${key}.latency.${side}`, calls: callsPerRound });
    latencyMs[side].push(...samplesMs);
    roundMedianMs[side].push(median(samplesMs));
    latencyCpu[side].add(cpuMicros, callsPerRound);
  });
  const latency = { adapter: summarize(latencyMs.adapter), raw: summarize(latencyMs.raw) };
  const note = `${latency.raw.count} calls per side after ${settings.warmupCalls} warm-up calls, in ${settings.latencyRounds} rounds; adapter/raw is the median of the per-round ratios of the round medians`;
  figures.push(
    compared(
      {
        id: `${key}.echo.median`,
        group,
        label: "sequential echo, median",
        unit: "ms",
        adapter: latency.adapter.median,
        raw: latency.raw.median,
        ratio: medianPairedRatio(roundMedianMs.adapter, roundMedianMs.raw),
        note,
      },
      ratioAtMost(1.05),
    ),
    compared({ id: `${key}.echo.p95`, group, label: "sequential echo, p95", unit: "ms", adapter: latency.adapter.p95, raw: latency.raw.p95 }),
    compared({ id: `${key}.echo.p99`, group, label: "sequential echo, p99", unit: "ms", adapter: latency.adapter.p99, raw: latency.raw.p99 }),
    compared({
      id: `${key}.echo.cpu`,
      group,
      label: "sequential echo, client CPU per call",
      unit: "µs",
      adapter: latencyCpu.adapter.microsPerOperation,
      raw: latencyCpu.raw.microsPerOperation,
      note: CPU_NOTE,
    }),
  );

  context.progress(`${group}: throughput, ${settings.inFlight} in flight`);
  const callsPerSecond = perSide<number[]>(() => []);
  const throughputCpu = perSide(() => new CpuMeter());
  await alternate(settings.throughputRounds, async (side) => {
    const round = await workers[side].run("throughput", { phase: `${key}.throughput.${side}`, calls: settings.throughputCalls, inFlight: settings.inFlight });
    callsPerSecond[side].push(round.callsPerSecond);
    throughputCpu[side].add(round.cpuMicros, settings.throughputCalls);
  });
  figures.push(
    compared(
      {
        id: `${key}.throughput`,
        group,
        label: `throughput, ${settings.inFlight} in flight, median`,
        unit: "calls/s",
        adapter: median(callsPerSecond.adapter),
        raw: median(callsPerSecond.raw),
        ratio: medianPairedRatio(callsPerSecond.adapter, callsPerSecond.raw),
        note: `${settings.throughputRounds} rounds of ${settings.throughputCalls} calls per side; adapter/raw is the median of the per-round ratios`,
      },
      ratioAtLeast(0.95),
    ),
    compared({
      id: `${key}.throughput.cpu`,
      group,
      label: `throughput, client CPU per call`,
      unit: "µs",
      adapter: throughputCpu.adapter.microsPerOperation,
      raw: throughputCpu.raw.microsPerOperation,
      note: CPU_NOTE,
    }),
  );

  await Promise.all(SIDES.map((side) => workers[side].run("close", { phase: `${key}.close.${side}` })));
  return figures;
}
