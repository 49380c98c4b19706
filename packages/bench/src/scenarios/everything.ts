import { everythingStdioServer, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import type { BenchClient, ServerTarget } from "../clients/bench-client.js";
import { createBenchClient } from "../clients/create-client.js";
import type { BenchContext } from "../context.js";
import { compared, plusAtMost, ratioAtLeast, ratioAtMost, type Figure } from "../figures.js";
import { alternate, perSide, SIDES, type Side } from "../interleave.js";
import { CpuMeter } from "../cpu-meter.js";
import { median, medianPairedRatio, summarize } from "../stats.js";

const ECHO_TOOL = "echo";
const ECHO_ARGS = { message: "hello from the bench" };

const CPU_NOTE = "user + system CPU of the bench process (the client; the server is another process): steadier than wall time on a busy machine";

export type EverythingTransport = "stdio" | "streamable-http";

/**
 * server-everything, one transport: connect (handshake included), full tool discovery,
 * sequential echo latency and throughput with many calls in flight, adapter against raw SDK.
 */
export async function runEverythingScenario(transport: EverythingTransport, context: BenchContext): Promise<Figure[]> {
  if (transport === "stdio") {
    const { command, args } = everythingStdioServer();
    return measureEverything({ kind: "stdio", command, args }, "stdio", context);
  }
  const server = await startEverythingHttp({ mode: "streamableHttp" });
  try {
    return await measureEverything({ kind: "streamable-http", url: server.url }, "http", context);
  } finally {
    await server.stop();
  }
}

async function measureEverything(target: ServerTarget, key: "stdio" | "http", context: BenchContext): Promise<Figure[]> {
  const { settings } = context;
  const group = `server-everything over ${target.kind}`;
  const figures: Figure[] = [];

  context.progress(`${group}: connect`);
  const connectRounds = key === "stdio" ? settings.stdioConnectRounds : settings.httpConnectRounds;
  const connectMs = perSide<number[]>(() => []);
  await alternate(connectRounds, async (side) => {
    context.warnings.phase = `${key}.connect.${side}`;
    const client = createBenchClient(side, target);
    const started = performance.now();
    await client.connect();
    connectMs[side].push(performance.now() - started);
    await client.close();
  });
  figures.push(
    compared(
      { id: `${key}.connect.median`, group, label: "connect + handshake, median", unit: "ms", adapter: median(connectMs.adapter), raw: median(connectMs.raw), note: `${connectRounds} rounds per side` },
      plusAtMost(5, "ms"),
    ),
  );

  // One long-lived client per side from here on; for stdio each has its own server process.
  const clients = perSide<BenchClient | undefined>(() => undefined);
  try {
    for (const side of SIDES) {
      const client = createBenchClient(side, target);
      await client.connect();
      clients[side] = client;
    }
    const client = (side: Side): BenchClient => clients[side]!;

    context.progress(`${group}: discover`);
    const discoverMs = perSide<number[]>(() => []);
    const toolCounts = perSide<number>(() => 0);
    await alternate(settings.discoverRounds, async (side) => {
      context.warnings.phase = `${key}.discover.${side}`;
      const started = performance.now();
      toolCounts[side] = await client(side).discover();
      discoverMs[side].push(performance.now() - started);
    });
    if (toolCounts.adapter !== toolCounts.raw) {
      throw new Error(`${group}: the adapter discovered ${toolCounts.adapter} tools but the raw SDK ${toolCounts.raw}; the comparison would be meaningless`);
    }
    figures.push(
      compared({ id: `${key}.discover.median`, group, label: `discover (${toolCounts.raw} tools), median`, unit: "ms", adapter: median(discoverMs.adapter), raw: median(discoverMs.raw) }),
    );

    context.progress(`${group}: sequential echo`);
    for (const side of SIDES) {
      context.warnings.phase = `${key}.warmup.${side}`;
      for (let i = 0; i < settings.warmupCalls; i += 1) await client(side).call(ECHO_TOOL, ECHO_ARGS);
    }
    const latencyMs = perSide<number[]>(() => []);
    const latencyCpu = perSide(() => new CpuMeter());
    const callsPerRound = Math.ceil(settings.latencyCalls / settings.latencyRounds);
    await alternate(settings.latencyRounds, async (side) => {
      context.warnings.phase = `${key}.latency.${side}`;
      const samples = latencyMs[side];
      const measured = client(side);
      await latencyCpu[side].measure(callsPerRound, async () => {
        for (let i = 0; i < callsPerRound; i += 1) {
          const started = performance.now();
          await measured.call(ECHO_TOOL, ECHO_ARGS);
          samples.push(performance.now() - started);
        }
      });
    });
    const latency = { adapter: summarize(latencyMs.adapter), raw: summarize(latencyMs.raw) };
    const note = `${latency.raw.count} calls per side after ${settings.warmupCalls} warm-up calls`;
    figures.push(
      compared({ id: `${key}.echo.median`, group, label: "sequential echo, median", unit: "ms", adapter: latency.adapter.median, raw: latency.raw.median, note }, ratioAtMost(1.05)),
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
      context.warnings.phase = `${key}.throughput.${side}`;
      await throughputCpu[side].measure(settings.throughputCalls, async () => {
        callsPerSecond[side].push(await throughput(client(side), settings.throughputCalls, settings.inFlight));
      });
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
  } finally {
    context.warnings.phase = `${key}.close`;
    await Promise.all(SIDES.map((side) => clients[side]?.close() ?? Promise.resolve()));
  }
  return figures;
}

/** Calls per second with `inFlight` calls always outstanding until `calls` have completed. */
export async function throughput(client: BenchClient, calls: number, inFlight: number): Promise<number> {
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started < calls) {
      started += 1;
      await client.call(ECHO_TOOL, ECHO_ARGS);
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, calls) }, lane));
  return calls / ((performance.now() - begin) / 1000);
}
