import { loadavg } from "node:os";
import { leakMarkerEnv, startV2HttpServer, v2StdioServerConfig } from "@mcp-tool-adapter/test-servers";
import type { BenchContext } from "../context.js";
import { compared, ratioAtLeast, ratioAtMost, type Figure, type TargetVerdict } from "../figures.js";
import { buildPeerBundles } from "../peers/build-peer-worker.js";
import { staleBuilds } from "../peers/dist-check.js";
import {
  ENGINE_BASELINE,
  engineSideInfo,
  engineSidesToRun,
  type EngineEra,
  type EngineSide,
} from "../peers/engine-sides.js";
import { PEER_FIGURE_KINDS } from "../peers/figure-kinds.js";
import type { PeerTarget } from "../peers/peer-client.js";
import type { PeerCall } from "../peers/peer-job.js";
import { figureRounds, runPeerRounds } from "../peers/peer-rounds.js";
import type { PeerTable } from "../peers/peer-table.js";
import { packageVersions } from "../peers/package-versions.js";
import { summarizeAgainstBaseline } from "../peers/ratios.js";
import { runPeerWorker } from "../peers/run-peer-worker.js";
import { typeScriptNodeArgs } from "../workers/spawn-worker.js";
import { nodeVersionOf, type PeerTransport } from "./peers.js";

const WORKER_TIMEOUT_MS = 300_000;

/** The v2 test server's echo. */
const V2_ECHO: PeerCall = { tool: "echo", args: { text: "hello from the bench" } };

/** The figures the engine comparison reports: the per-call ones, and what a process costs to start. */
const ENGINE_FIGURE_KEYS = ["echo.p50", "cpu.sequential", "cpu.in-flight", "throughput", "import", "heap", "connect"];
export const ENGINE_FIGURE_KINDS = PEER_FIGURE_KINDS.filter((kind) => ENGINE_FIGURE_KEYS.includes(kind.key));

/**
 * Issue 21's target for engine-2026, as for the default engine: per-call cost within 5% of the raw
 * client (here the SDK v2 Client on the same server and era), throughput within 5% of it.
 */
const ENGINE_2026_TARGETS: Readonly<Record<string, (a: number, r: number, ratio: number) => TargetVerdict>> = {
  "echo.p50": ratioAtMost(1.05),
  "cpu.sequential": ratioAtMost(1.05),
  "cpu.in-flight": ratioAtMost(1.05),
  throughput: ratioAtLeast(0.95),
};

/** The packages the engine sides load from their dist builds. */
const ENGINE_BUILD_ROOTS = ["mcp-tool-adapter", "@mcp-tool-adapter/adapter", "@mcp-tool-adapter/engine-2026"];

/**
 * Issue 21's comparison over one transport, on the peer comparison's machinery: per round every
 * side in a fresh node process (order rotating), against the bench's SDK v2 server (modern-only
 * for the 2026-07-28 sides, dual-era for the 2025 ones); each figure as the median over the
 * rounds and as the median of its per-round ratios to the raw v2 Client.
 */
export async function runEnginesScenario(
  transport: PeerTransport,
  context: BenchContext,
): Promise<{ figures: Figure[]; table: PeerTable<EngineSide> }> {
  const { settings, peers } = context;
  const key = transport === "stdio" ? "stdio" : "http";
  const calls = settings.engineCalls[key];
  if (!peers.fromSource) {
    const stale = await staleBuilds(ENGINE_BUILD_ROOTS);
    if (stale.length > 0) {
      throw new Error(
        `the engine comparison measures our published builds, and these are missing or out of date: ${stale.join("; ")}. Run \`pnpm build\` first (or pass --from-source).`,
      );
    }
  }
  const node = peers.node ?? process.execPath;
  const nodeVersion = nodeVersionOf(node);
  const sides = engineSidesToRun(peers.engineSides);
  const group = `engines over ${transport} (${nodeVersion})`;
  context.progress(`${group}: ${sides.join(", ")}`);
  const bundles = await buildPeerBundles();
  const marker = leakMarkerEnv();
  const stops: (() => Promise<void>)[] = [];
  const loadBefore = loadavg();
  try {
    const targets = await startServers(transport, marker, stops);
    const nodeArgs = peers.fromSource ? typeScriptNodeArgs() : [];
    const env = { ...process.env, ...marker };
    const { rounds, failures } = await runPeerRounds<EngineSide>({
      runners: sides,
      rounds: settings.engineRounds,
      jobFor: (side) => ({
        kind: "side",
        side,
        target: targets[engineSideInfo(side).era],
        call: V2_ECHO,
        warmupCalls: calls.warmup,
        sequentialCalls: calls.sequential,
        concurrentCalls: calls.concurrent,
        inFlight: settings.peerInFlight,
      }),
      run: (job) => runPeerWorker(job, { node, worker: bundles.worker, nodeArgs, env, timeoutMs: WORKER_TIMEOUT_MS }),
      starting: (side, round) => {
        context.progress(`${group}: round ${round + 1} of ${settings.engineRounds}, ${side}`);
        context.warnings.phase = `engines.${key}.${side}`;
      },
    });
    for (const failure of failures) context.progress(`${group}: FAILED ${failure.slice(0, 200)}`);
    const loadAfter = loadavg();
    const valueRounds = ENGINE_FIGURE_KINDS.map((kind) => figureRounds(rounds, kind));
    const summaries = valueRounds.map((values) => summarizeAgainstBaseline(values, sides, ENGINE_BASELINE));
    const table: PeerTable<EngineSide> = {
      title: "engines",
      transport,
      node: nodeVersion,
      rounds: settings.engineRounds,
      loadAverage: { before: loadBefore, after: loadAfter },
      fromSource: peers.fromSource,
      baseline: ENGINE_BASELINE,
      sides: sides.map((side) => ({ side, label: engineSideInfo(side).label, call: engineSideInfo(side).call })),
      leftOut: [],
      versions: await packageVersions(sides.flatMap((side) => engineSideInfo(side).packages)),
      rows: ENGINE_FIGURE_KINDS.map((kind, index) => ({
        key: kind.key,
        label: kind.label,
        unit: kind.unit,
        ratioless: kind.ratioless === true,
        cells: summaries[index]!,
        perRound: valueRounds[index]!,
      })),
      failures,
    };
    const method = `${settings.engineRounds} round(s), a fresh node process per side per round, order rotating; ${calls.warmup} warm-up, ${calls.sequential} sequential and ${calls.concurrent} calls with ${settings.peerInFlight} in flight per process; 2026-07-28 sides on a modern-only v2 server, 2025 sides on a dual-era one; ratio = median of per-round ratios to the raw v2 Client (2026-07-28); load average ${loadBefore.map((l) => l.toFixed(2)).join("/")} before, ${loadAfter.map((l) => l.toFixed(2)).join("/")} after (1/5/15 min)`;
    const figures: Figure[] = [];
    ENGINE_FIGURE_KINDS.forEach((kind, index) => {
      const bySide = summaries[index]!;
      for (const side of sides) {
        if (side === ENGINE_BASELINE) continue;
        figures.push(
          compared(
            {
              id: `engines.${key}.${kind.key}.${side}`,
              group,
              label: `${kind.label}: ${engineSideInfo(side).label}`,
              unit: kind.unit,
              adapter: bySide[side].median,
              raw: bySide[ENGINE_BASELINE].median,
              ratio: bySide[side].ratio,
              ...(side === "engine-2026" && kind.key === "echo.p50" ? { note: method } : {}),
            },
            side === "engine-2026" ? ENGINE_2026_TARGETS[kind.key] : undefined,
          ),
        );
      }
    });
    return { figures, table };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

/**
 * Where each era's sides connect: the SDK v2 server, modern-only for 2026-07-28 (so nothing but
 * the new revision can be measured there) and dual-era for 2025. Over stdio each side's process
 * starts its own server; over HTTP both servers run once, in this process, on 127.0.0.1.
 */
async function startServers(
  transport: PeerTransport,
  env: Readonly<Record<string, string>>,
  stops: (() => Promise<void>)[],
): Promise<Record<EngineEra, PeerTarget>> {
  if (transport === "stdio") {
    const stdio = (modernOnly: boolean): PeerTarget => ({ kind: "stdio", ...v2StdioServerConfig({ modernOnly }), env });
    return { "2026-07-28": stdio(true), "2025": stdio(false) };
  }
  const modern = await startV2HttpServer({ modernOnly: true });
  stops.push(() => modern.close());
  const dual = await startV2HttpServer();
  stops.push(() => dual.close());
  return {
    "2026-07-28": { kind: "streamable-http", url: modern.url },
    "2025": { kind: "streamable-http", url: dual.url },
  };
}
