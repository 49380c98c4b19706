import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { everythingStdioServer, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import type { ServerEntries } from "mcp-tool-adapter";
import type { BenchContext } from "../context.js";
import { compared, ratioAtMost, single, type Figure } from "../figures.js";
import type { CallJob, CallJobResult } from "../gateway/call-job.js";
import { gatewayCpuPerCall, runCallWorker, startHttpGateway, stdioGatewayCommand } from "../gateway/run-processes.js";
import { median, medianPairedRatio } from "../stats.js";

const GROUP = "Gateway overhead (issue 34)";
/** Issue 34's target: p50 through the gateway at most this many times the direct p50. */
const P50_RATIO_LIMIT = 1.3;
const IN_FLIGHT = 50;
/** Rounds per transport, and echo calls per worker process. HTTP calls cost far more CPU, so fewer. */
const FULL = {
  rounds: 5,
  stdio: { warmupCalls: 1_000, sequentialCalls: 2_000, concurrentCalls: 5_000 },
  http: { warmupCalls: 300, sequentialCalls: 600, concurrentCalls: 1_500 },
};
const QUICK = {
  rounds: 1,
  stdio: { warmupCalls: 20, sequentialCalls: 50, concurrentCalls: 100 },
  http: { warmupCalls: 20, sequentialCalls: 50, concurrentCalls: 100 },
};

type Transport = "stdio" | "http";
type Side = "direct" | "gateway";
/** One side of one round: what its client measured, and (gateway side) the gateway's own CPU per call. */
type SideResult = CallJobResult & { readonly gatewayCpuUsPerCall?: number | undefined };

/**
 * Echo calls to server-everything, directly and through the gateway (single-server mode, its own
 * process, the upstream on the same transport as the client), with the SDK 1.x Client in a fresh
 * process per side and round; the side that goes first alternates by round. Per-call p50 and the
 * client's CPU per call come from sequential calls, throughput from 50 calls in flight.
 */
export async function runGatewayScenario(context: BenchContext): Promise<Figure[]> {
  const plan = context.settings.name === "quick" ? QUICK : FULL;
  const figures: Figure[] = [];
  for (const transport of ["stdio", "http"] as const) {
    context.progress(`${GROUP}: ${transport}, ${plan.rounds} rounds per side`);
    const calls = { ...plan[transport], inFlight: IN_FLIGHT };
    const results = await measure(transport, { rounds: plan.rounds, calls });
    figures.push(...figuresFor(transport, results, plan.rounds));
  }
  return figures;
}

async function measure(
  transport: Transport,
  plan: { rounds: number; calls: Omit<CallJob, "target"> },
): Promise<Record<Side, SideResult[]>> {
  const results: Record<Side, SideResult[]> = { direct: [], gateway: [] };
  const http = transport === "http" ? await startEverythingHttp({ mode: "streamableHttp" }) : undefined;
  try {
    const upstream: ServerEntries =
      http === undefined
        ? { everything: { transport: "stdio", ...everythingStdioServer() } }
        : { everything: { transport: "streamable-http", url: http.url } };
    for (let round = 0; round < plan.rounds; round += 1) {
      const order: Side[] = round % 2 === 0 ? ["direct", "gateway"] : ["gateway", "direct"];
      for (const side of order) results[side].push(await runSide(side, upstream, { http, calls: plan.calls }));
    }
  } finally {
    await http?.stop();
  }
  return results;
}

async function runSide(
  side: Side,
  servers: ServerEntries,
  options: { http: { url: string } | undefined; calls: Omit<CallJob, "target"> },
): Promise<SideResult> {
  const { http, calls } = options;
  if (side === "direct") {
    const server = everythingStdioServer();
    const target =
      http === undefined
        ? { kind: "stdio" as const, command: server.command, args: server.args }
        : { kind: "http" as const, url: http.url };
    return runCallWorker({ ...calls, target });
  }
  const folder = await mkdtemp(join(tmpdir(), "gateway-bench-"));
  const cpuReportPath = join(folder, "cpu.json");
  const allCalls = calls.warmupCalls + calls.sequentialCalls + calls.concurrentCalls;
  try {
    let result: CallJobResult;
    if (http === undefined) {
      const target = { kind: "stdio" as const, ...stdioGatewayCommand({ servers, cpuReportPath }) };
      result = await runCallWorker({ ...calls, target });
    } else {
      const gateway = await startHttpGateway({ servers, cpuReportPath });
      try {
        result = await runCallWorker({ ...calls, target: { kind: "http", url: gateway.url } });
      } finally {
        await gateway.stop();
      }
    }
    return { ...result, gatewayCpuUsPerCall: await gatewayCpuPerCall(cpuReportPath, allCalls) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function figuresFor(transport: Transport, results: Record<Side, SideResult[]>, rounds: number): Figure[] {
  const pick = (side: Side, key: keyof CallJobResult) => results[side].map((result) => result[key]);
  const gatewayCpu = results.gateway.flatMap((result) => result.gatewayCpuUsPerCall ?? []);
  const figure = (key: keyof CallJobResult) => ({
    adapter: median(pick("gateway", key)),
    raw: median(pick("direct", key)),
    ratio: medianPairedRatio(pick("gateway", key), pick("direct", key)),
  });
  const note = `"adapter" = through the gateway, "raw" = server-everything directly; median of ${rounds} rounds (a fresh client process per side and round, first side alternating), ratio = median of per-round ratios`;
  return [
    compared(
      {
        id: `gateway.${transport}.p50`,
        group: GROUP,
        label: `${transport}: echo p50, sequential`,
        unit: "µs",
        ...figure("p50Us"),
        note,
      },
      ratioAtMost(P50_RATIO_LIMIT),
    ),
    compared({
      id: `gateway.${transport}.client-cpu`,
      group: GROUP,
      label: `${transport}: client CPU per call`,
      unit: "µs",
      ...figure("cpuUsPerCall"),
      note,
    }),
    compared({
      id: `gateway.${transport}.in-flight`,
      group: GROUP,
      label: `${transport}: throughput, ${IN_FLIGHT} in flight`,
      unit: "calls/s",
      ...figure("concurrentCallsPerSecond"),
      note,
    }),
    ...(gatewayCpu.length === 0
      ? []
      : [
          single({
            id: `gateway.${transport}.gateway-cpu`,
            group: GROUP,
            label: `${transport}: the gateway's own CPU per call`,
            unit: "µs",
            value: median(gatewayCpu),
            note: `the gateway process's CPU time (user + system) from after its upstream connected to when its client left, over every call of the round (warm-up, sequential, ${IN_FLIGHT} in flight); median of ${gatewayCpu.length} rounds`,
          }),
        ]),
  ];
}
