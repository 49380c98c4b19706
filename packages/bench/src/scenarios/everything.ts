import { everythingStdioServer, leakMarkerEnv, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import type { ServerTarget } from "../clients/bench-client.js";
import type { BenchContext } from "../context.js";
import { CpuMeter } from "../cpu-meter.js";
import { compared, plusAtMost, ratioAtLeast, ratioAtMost, type Figure } from "../figures.js";
import { alternate, perSide, SIDES, sidesInRound, type Side } from "../interleave.js";
import { hodgesLehmannPairedShift, median, medianPairedRatio, summarize } from "../stats.js";
import type { BenchSettings } from "../settings.js";
import { startSideWorkers, stopSideWorkers, type SideWorker } from "../workers/side-workers.js";

const CPU_NOTE =
  "user + system CPU of the side's worker process (the client; the server is another process): steadier than wall time on a busy machine";

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

/** Everything measured for one transport, per side, over all generations of worker processes. */
interface EverythingSamples {
  connectMs: Record<Side, number[]>;
  discoverMs: Record<Side, number[]>;
  toolCounts: Record<Side, number>;
  latencyMs: Record<Side, number[]>;
  /** One median per latency round: the pairs the verdict is taken from. */
  roundMedianMs: Record<Side, number[]>;
  latencyCpu: Record<Side, CpuMeter>;
  callsPerSecond: Record<Side, number[]>;
  throughputCpu: Record<Side, CpuMeter>;
}

/**
 * Runs the measurements in `settings.workerGenerations` generations, each with a fresh worker
 * process per side (and, over stdio, fresh servers). A process pair keeps whatever placement and
 * state it started with for its whole life; measured with raw against raw, one generation alone
 * read anywhere from 0.83 to 1.02. Spreading the rounds over generations averages that out.
 */
async function measureEverything(
  target: ServerTarget,
  key: "stdio" | "http",
  context: BenchContext,
): Promise<Figure[]> {
  const group = `server-everything over ${target.kind}`;
  const { workerGenerations } = context.settings;
  const samples: EverythingSamples = {
    connectMs: perSide(() => []),
    discoverMs: perSide(() => []),
    toolCounts: perSide(() => 0),
    latencyMs: perSide(() => []),
    roundMedianMs: perSide(() => []),
    latencyCpu: perSide(() => new CpuMeter()),
    callsPerSecond: perSide(() => []),
    throughputCpu: perSide(() => new CpuMeter()),
  };
  for (let generation = 0; generation < workerGenerations; generation += 1) {
    context.progress(`${group}: worker processes, generation ${generation + 1} of ${workerGenerations}`);
    const workers = await startSideWorkers({
      target,
      phasePrefix: key,
      warnings: context.warnings,
      calibrate: context.calibrate,
    });
    try {
      await measureWithWorkers(workers, key, group, context, samples, generation);
    } finally {
      context.warnings.phase = `${key}.close`;
      await stopSideWorkers(Object.values(workers));
    }
  }
  return everythingFigures(samples, key, group, context);
}

function warmupCalls(settings: BenchSettings, key: "stdio" | "http"): number {
  return key === "stdio" ? settings.stdioWarmupCalls : settings.httpWarmupCalls;
}

/** A difference with its sign, to one decimal: "+1.6", "-3.1". */
function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(1)}`;
}

/**
 * This generation's share of `rounds`: all generations together run at least `rounds`, and each
 * runs an even number (unless just one), so either side goes first equally often in it.
 */
function roundsPerGeneration(rounds: number, context: BenchContext): number {
  const share = Math.max(1, Math.ceil(rounds / context.settings.workerGenerations));
  return share > 1 && share % 2 === 1 ? share + 1 : share;
}

async function measureWithWorkers(
  workers: Record<Side, SideWorker>,
  key: "stdio" | "http",
  group: string,
  context: BenchContext,
  samples: EverythingSamples,
  generation: number,
): Promise<void> {
  const { settings } = context;
  // The one-off steps (open, warm-up) go adapter first in even generations and raw first in odd
  // ones. With a fixed order, raw against raw (--calibrate) showed the first worker 4-7% more
  // CPU per HTTP call in every generation.
  const sidesInTurn = sidesInRound(generation);

  context.progress(`${group}: connect`);
  const connectRounds = key === "stdio" ? settings.stdioConnectRounds : settings.httpConnectRounds;
  await alternate(roundsPerGeneration(connectRounds, context), async (side) => {
    samples.connectMs[side].push((await workers[side].run("connect-round", { phase: `${key}.connect.${side}` })).ms);
  });

  // One long-lived client per side from here on; for stdio each has its own server process.
  for (const side of sidesInTurn) {
    const { library } = await workers[side].run("open", { phase: `${key}.open.${side}` });
    const expected = context.calibrate ? "raw" : side;
    if (library !== expected)
      throw new Error(
        `${group}: the ${side} side worker runs the ${library} client, not the ${expected} one; the comparison would be meaningless`,
      );
  }

  context.progress(`${group}: discover`);
  await alternate(roundsPerGeneration(settings.discoverRounds, context), async (side) => {
    const { ms, toolCount } = await workers[side].run("discover", { phase: `${key}.discover.${side}` });
    samples.toolCounts[side] = toolCount;
    samples.discoverMs[side].push(ms);
  });
  if (samples.toolCounts.adapter !== samples.toolCounts.raw) {
    throw new Error(
      `${group}: the adapter discovered ${samples.toolCounts.adapter} tools but the raw SDK ${samples.toolCounts.raw}; the comparison would be meaningless`,
    );
  }

  context.progress(`${group}: sequential echo`);
  for (const side of sidesInTurn)
    await workers[side].run("warmup", { phase: `${key}.warmup.${side}`, calls: warmupCalls(settings, key) });
  const callsPerRound = Math.ceil(settings.latencyCalls / settings.latencyRounds);
  await alternate(roundsPerGeneration(settings.latencyRounds, context), async (side) => {
    const { samplesMs, cpuMicros } = await workers[side].run("latency", {
      phase: `${key}.latency.${side}`,
      calls: callsPerRound,
    });
    samples.latencyMs[side].push(...samplesMs);
    samples.roundMedianMs[side].push(median(samplesMs));
    samples.latencyCpu[side].add(cpuMicros, callsPerRound);
  });

  context.progress(`${group}: throughput, ${settings.inFlight} in flight`);
  await alternate(roundsPerGeneration(settings.throughputRounds, context), async (side) => {
    const round = await workers[side].run("throughput", {
      phase: `${key}.throughput.${side}`,
      calls: settings.throughputCalls,
      inFlight: settings.inFlight,
    });
    samples.callsPerSecond[side].push(round.callsPerSecond);
    samples.throughputCpu[side].add(round.cpuMicros, settings.throughputCalls);
  });

  await Promise.all(SIDES.map((side) => workers[side].run("close", { phase: `${key}.close.${side}` })));
}

function everythingFigures(
  samples: EverythingSamples,
  key: "stdio" | "http",
  group: string,
  context: BenchContext,
): Figure[] {
  const { settings } = context;
  const generations = `${settings.workerGenerations} generation${settings.workerGenerations === 1 ? "" : "s"} of worker processes`;
  const latency = { adapter: summarize(samples.latencyMs.adapter), raw: summarize(samples.latencyMs.raw) };
  const latencyRounds = samples.roundMedianMs.raw.length;
  const throughputRounds = samples.callsPerSecond.raw.length;
  const connectShift = hodgesLehmannPairedShift(samples.connectMs.adapter, samples.connectMs.raw);
  return [
    compared(
      {
        id: `${key}.connect.median`,
        group,
        label: "connect + handshake, median",
        unit: "ms",
        adapter: median(samples.connectMs.adapter),
        raw: median(samples.connectMs.raw),
        note: `${samples.connectMs.raw.length} rounds per side over ${generations}; judged by the Hodges-Lehmann estimate of the per-round differences, ${signed(connectShift.estimate)} ms (95% interval ${signed(connectShift.low)} to ${signed(connectShift.high)} ms); ${PROCESS_NOTE}`,
      },
      plusAtMost(5, "ms", connectShift.estimate),
    ),
    compared({
      id: `${key}.discover.median`,
      group,
      label: `discover (${samples.toolCounts.raw} tools), median`,
      unit: "ms",
      adapter: median(samples.discoverMs.adapter),
      raw: median(samples.discoverMs.raw),
    }),
    compared(
      {
        id: `${key}.echo.median`,
        group,
        label: "sequential echo, median",
        unit: "ms",
        adapter: latency.adapter.median,
        raw: latency.raw.median,
        ratio: medianPairedRatio(samples.roundMedianMs.adapter, samples.roundMedianMs.raw),
        note: `${latency.raw.count} calls per side after ${warmupCalls(settings, key)} warm-up calls per generation, in ${latencyRounds} rounds over ${generations}; adapter/raw is the median of the per-round ratios of the round medians`,
      },
      ratioAtMost(1.05),
    ),
    compared({
      id: `${key}.echo.p95`,
      group,
      label: "sequential echo, p95",
      unit: "ms",
      adapter: latency.adapter.p95,
      raw: latency.raw.p95,
    }),
    compared({
      id: `${key}.echo.p99`,
      group,
      label: "sequential echo, p99",
      unit: "ms",
      adapter: latency.adapter.p99,
      raw: latency.raw.p99,
    }),
    compared({
      id: `${key}.echo.cpu`,
      group,
      label: "sequential echo, client CPU per call",
      unit: "µs",
      adapter: samples.latencyCpu.adapter.microsPerOperation,
      raw: samples.latencyCpu.raw.microsPerOperation,
      note: CPU_NOTE,
    }),
    compared(
      {
        id: `${key}.throughput`,
        group,
        label: `throughput, ${settings.inFlight} in flight, median`,
        unit: "calls/s",
        adapter: median(samples.callsPerSecond.adapter),
        raw: median(samples.callsPerSecond.raw),
        ratio: medianPairedRatio(samples.callsPerSecond.adapter, samples.callsPerSecond.raw),
        note: `${throughputRounds} rounds of ${settings.throughputCalls} calls per side over ${generations}; adapter/raw is the median of the per-round ratios`,
      },
      ratioAtLeast(0.95),
    ),
    compared({
      id: `${key}.throughput.cpu`,
      group,
      label: `throughput, client CPU per call`,
      unit: "µs",
      adapter: samples.throughputCpu.adapter.microsPerOperation,
      raw: samples.throughputCpu.raw.microsPerOperation,
      note: CPU_NOTE,
    }),
  ];
}
