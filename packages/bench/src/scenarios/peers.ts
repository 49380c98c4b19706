import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { everythingStdioServer, leakMarkerEnv, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import type { BenchContext } from "../context.js";
import { compared, ratioAtLeast, ratioAtMost, type Figure, type TargetVerdict } from "../figures.js";
import { buildPeerBundles } from "../peers/build-peer-worker.js";
import { staleBuilds } from "../peers/dist-check.js";
import { PEER_FIGURE_KINDS, type PeerFigureKind } from "../peers/figure-kinds.js";
import type { PeerTarget } from "../peers/peer-client.js";
import type { ImportProbe, PeerJob, PeerResult, PeerSideJob } from "../peers/peer-job.js";
import { packageVersions } from "../peers/package-versions.js";
import { summarizeAgainstBaseline, type RoundValues, type SideSummary } from "../peers/ratios.js";
import { figureRounds, runPeerRounds } from "../peers/peer-rounds.js";
import { runPeerWorker } from "../peers/run-peer-worker.js";
import { anchorTargetsFor } from "../peers/anchor-targets.js";
import { heapRepeatVerdict } from "../peers/heap-repeat-verdict.js";
import { FLOOR_SIDE, peerSideInfo, PEER_SIDE_NAMES, sidesRunnableOn, type PeerSide } from "../peers/sides.js";
import { sequentialRoundsNote, type PeerTable } from "../peers/peer-table.js";
import { typeScriptNodeArgs } from "../workers/spawn-worker.js";
import { pairedRatioInterval } from "../stats.js";

export type PeerTransport = "stdio" | "streamable-http";

/** What the import-probe pair is judged on: the adapter package alone against the SDK Client alone. */
const PROBES: readonly ImportProbe[] = ["adapter-package", "sdk-client"];
type Runner = PeerSide | ImportProbe;

const WORKER_TIMEOUT_MS = 600_000;

/** The targets of issue 17, per transport: ratios to the raw SDK Client in the same round. */
const CALL_TARGETS: Readonly<
  Record<PeerTransport, Readonly<Record<string, (a: number, r: number, ratio: number) => TargetVerdict>>>
> = {
  stdio: {
    "echo.p50": ratioAtMost(1.0),
    "cpu.sequential": ratioAtMost(0.9),
    "cpu.in-flight": ratioAtMost(0.9),
    throughput: ratioAtLeast(1.1),
  },
  "streamable-http": {
    "cpu.sequential": ratioAtMost(0.8),
    "cpu.in-flight": ratioAtMost(0.8),
    throughput: ratioAtLeast(1.15),
  },
};
const UMBRELLA_IMPORT_LIMIT = 1.2;
const ADAPTER_IMPORT_LIMIT = 1.1;
const HEAP_LIMIT = 1.3;
const OUR_SIDES: readonly PeerSide[] = ["adapter", "adapter-discovered"];

/** The node binary's major version, asked of the binary itself. */
export function nodeVersionOf(node: string): string {
  return execFileSync(node, ["-p", "process.version"], { encoding: "utf8" }).trim();
}

/**
 * The stdio servers of the comparison, started by each side on `node`, the Node the sides run on:
 * a host on that Node starts its stdio servers with it.
 */
export function stdioPeerTargets(
  node: string,
  generatedArgs: readonly string[],
  env: Readonly<Record<string, string>>,
): { target: PeerTarget; listTarget: PeerTarget } {
  return {
    target: { kind: "stdio", command: node, args: everythingStdioServer().args, env },
    listTarget: { kind: "stdio", command: node, args: [...generatedArgs], env },
  };
}

/** A server process that announces its URL on stdout (the generated server with --http). */
async function startAnnouncingServer(command: string, args: readonly string[]): Promise<{ url: string; stop(): void }> {
  const child: ChildProcess = spawn(command, [...args], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...leakMarkerEnv() },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      seen += chunk;
      const match = /listening (\S+)/.exec(seen);
      if (match !== null) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`generated HTTP server exited (${String(code)}) before listening`)));
  });
  return {
    url,
    stop: () => {
      child.stdin?.end();
      child.kill();
    },
  };
}

/**
 * Issue 17's comparison over one transport: per round, every side (and both import probes) in a
 * fresh node process, in an order that rotates each round; each figure as the median over the
 * rounds, and as the median of its per-round ratios to the raw SDK Client.
 */
export async function runPeersScenario(
  transport: PeerTransport,
  context: BenchContext,
): Promise<{ figures: Figure[]; table: PeerTable }> {
  const { settings, peers } = context;
  const key = transport === "stdio" ? "stdio" : "http";
  if (!peers.fromSource) {
    const stale = await staleBuilds();
    if (stale.length > 0) {
      throw new Error(
        `the peer comparison measures our published builds, and these are missing or out of date: ${stale.join("; ")}. Run \`pnpm build\` first (or pass --from-source).`,
      );
    }
  }
  const node = peers.node ?? process.execPath;
  const nodeVersion = nodeVersionOf(node);
  const major = Number(/^v(\d+)/.exec(nodeVersion)?.[1] ?? 0);
  const wanted = peers.sides ?? PEER_SIDE_NAMES;
  const sides = sidesRunnableOn(major, wanted);
  const leftOut = wanted.filter((side) => !sides.includes(side));
  const group = `peers over ${transport} (${nodeVersion})`;
  context.progress(
    `${group}: ${sides.join(", ")}${leftOut.length === 0 ? "" : `; left out (need a newer Node, see --node): ${leftOut.join(", ")}`}`,
  );
  const bundles = await buildPeerBundles();
  const generatedArgs = [bundles.generatedServer, `--tools=${settings.peerListTools}`, "--page-size=100"];
  const marker = leakMarkerEnv();
  let target: PeerTarget;
  let listTarget: PeerTarget;
  const stops: (() => void | Promise<void>)[] = [];
  const loadBefore = loadavg();
  try {
    if (transport === "stdio") {
      ({ target, listTarget } = stdioPeerTargets(node, generatedArgs, marker));
    } else {
      const server = await startEverythingHttp({ mode: "streamableHttp", node });
      stops.push(() => server.stop());
      const generated = await startAnnouncingServer(node, [...generatedArgs, "--http"]);
      stops.push(generated.stop);
      target = { kind: "streamable-http", url: server.url };
      listTarget = { kind: "streamable-http", url: generated.url };
    }
    const nodeArgs = peers.fromSource ? typeScriptNodeArgs() : [];
    const env = { ...process.env, ...marker };
    const runners: readonly Runner[] = [...sides, ...PROBES];
    const sideJob = (side: PeerSide): PeerSideJob => ({
      kind: "side",
      side,
      target,
      listTarget,
      expectedTools: settings.peerListTools,
      warmupCalls: settings.peerWarmupCalls,
      sequentialCalls: settings.peerSequentialCalls,
      concurrentCalls: settings.peerConcurrentCalls,
      inFlight: settings.peerInFlight,
    });
    const run = (job: PeerJob) =>
      runPeerWorker(job, { node, worker: bundles.worker, nodeArgs, env, timeoutMs: WORKER_TIMEOUT_MS });
    const full = await runPeerRounds<Runner>({
      runners,
      rounds: settings.peerRounds,
      jobFor: (runner) =>
        (PROBES as readonly string[]).includes(runner)
          ? { kind: "import", probe: runner as ImportProbe }
          : sideJob(runner as PeerSide),
      run,
      starting: (runner, round) => {
        context.progress(`${group}: round ${round + 1} of ${settings.peerRounds}, ${runner}`);
        context.warnings.phase = `peers.${key}.${runner}`;
      },
    });
    // The sequential stage alone, in more fresh processes: see BenchSettings.peerSequentialRounds.
    const sequentialRounds = settings.peerSequentialRounds[key];
    const sequentialOnly = await runPeerRounds<PeerSide>({
      runners: sides,
      rounds: sequentialRounds,
      jobFor: (side) => ({ ...sideJob(side), stage: "sequential" }),
      run,
      starting: (side, round) => {
        context.progress(`${group}: sequential stage alone, round ${round + 1} of ${sequentialRounds}, ${side}`);
        context.warnings.phase = `peers.${key}.${side}`;
      },
    });
    const rounds: readonly Partial<Record<Runner, PeerResult>>[] = [...full.rounds, ...sequentialOnly.rounds];
    const failures = [
      ...full.failures,
      ...sequentialOnly.failures.map((failure) => `sequential stage alone, ${failure}`),
    ];
    for (const failure of failures) context.progress(`${group}: FAILED ${failure.slice(0, 200)}`);
    const probeRounds = rounds.map((results) => {
      const values: RoundValues<Runner> = {};
      for (const probe of PROBES) {
        const result = results[probe];
        if (result?.kind === "import") values[probe] = result.importMs;
      }
      return values;
    });
    const loadAfter = loadavg();
    const valueRounds = PEER_FIGURE_KINDS.map((kind) => figureRounds(rounds, kind));
    const summaries = PEER_FIGURE_KINDS.map((kind, index) => ({
      kind,
      bySide: summarizeAgainstBaseline(valueRounds[index]!, sides, "raw"),
    }));
    const floorRan = sides.includes(FLOOR_SIDE);
    const probeSummaries = summarizeAgainstBaseline(probeRounds, PROBES, "sdk-client");
    const probes = { adapterPackage: probeSummaries["adapter-package"], sdkClient: probeSummaries["sdk-client"] };
    const table: PeerTable<PeerSide> = {
      transport,
      node: nodeVersion,
      rounds: settings.peerRounds,
      sequentialRounds,
      loadAverage: { before: loadBefore, after: loadAfter },
      fromSource: peers.fromSource,
      sides: sides.map((side) => ({ side, label: peerSideInfo(side).label, call: peerSideInfo(side).call })),
      leftOut,
      versions: await packageVersions(sides.flatMap((side) => peerSideInfo(side).packages)),
      rows: summaries.map(({ kind, bySide }, index) => ({
        key: kind.key,
        label: kind.label,
        unit: kind.unit,
        ratioless: kind.ratioless === true,
        // The floor imports nothing, so its import has no meaningful ratio: its cell shows the value only.
        cells: Object.fromEntries(
          sides.map((side) => [
            side,
            side === FLOOR_SIDE && kind.floorless === true ? { ...bySide[side], ratio: Number.NaN } : bySide[side],
          ]),
        ),
        ...(floorRan && kind.floorless !== true
          ? { floorCells: summarizeAgainstBaseline(valueRounds[index]!, sides, FLOOR_SIDE) }
          : {}),
        perRound: valueRounds[index]!,
      })),
      probes,
      failures,
    };
    const loadNote = `load average ${loadBefore.map((l) => l.toFixed(2)).join("/")} before, ${loadAfter.map((l) => l.toFixed(2)).join("/")} after (1/5/15 min)`;
    const figures = peerFigures(table, probes, summaries, key, group, loadNote, transport, context);
    figures.push(...anchorFigures(table, key, group));
    return { figures, table };
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

function peerFigures(
  table: PeerTable<PeerSide>,
  probes: { adapterPackage: SideSummary; sdkClient: SideSummary },
  summaries: readonly { kind: PeerFigureKind; bySide: Record<PeerSide, SideSummary> }[],
  key: string,
  group: string,
  loadNote: string,
  transport: PeerTransport,
  context: BenchContext,
): Figure[] {
  const { settings } = context;
  const method = `${table.rounds} round(s)${sequentialRoundsNote(table)}, a fresh node process per side per round, order rotating; ${settings.peerWarmupCalls} warm-up, ${settings.peerSequentialCalls} sequential and ${settings.peerConcurrentCalls} calls with ${settings.peerInFlight} in flight per process; ratio = median of per-round ratios to the raw SDK Client; ${p50Precision(table)}${loadNote}`;
  const figures: Figure[] = [];
  for (const { kind, bySide } of summaries) {
    const raw = bySide.raw;
    for (const side of table.sides.map((entry) => entry.side)) {
      if (side === "raw") continue;
      const summary = bySide[side];
      const ours = OUR_SIDES.includes(side);
      const target = ours ? targetFor(kind.key, side, transport) : undefined;
      figures.push(
        compared(
          {
            id: `peers.${key}.${kind.key}.${side}`,
            group,
            label: `${kind.label}: ${peerSideInfo(side).label}`,
            unit: kind.unit,
            adapter: summary.median,
            raw: raw.median,
            ...(kind.ratioless ? { showRatio: false } : { ratio: summary.ratio }),
            ...(side === "adapter" && kind.key === "echo.p50" ? { note: method } : {}),
          },
          target,
        ),
      );
    }
  }
  const { adapterPackage, sdkClient } = probes;
  figures.push(
    compared(
      {
        id: `peers.${key}.import.adapter-package`,
        group,
        label: "time to import @mcp-tool-adapter/adapter alone (raw: the SDK Client alone)",
        unit: "ms",
        adapter: adapterPackage.median,
        raw: sdkClient.median,
        ratio: adapterPackage.ratio,
      },
      ratioAtMost(ADAPTER_IMPORT_LIMIT),
    ),
  );
  // The leak check (heapRepeatVerdict) on each of our sides.
  for (const side of OUR_SIDES) {
    if (!table.sides.some((entry) => entry.side === side)) continue;
    const heap = summaries.find((entry) => entry.kind.key === "heap")!.bySide[side];
    const index = figures.findIndex((figure) => figure.id === `peers.${key}.heap.repeat-growth.${side}`);
    const growth = figures[index]!.adapter!;
    figures[index] = { ...figures[index]!, target: heapRepeatVerdict(growth, heap.median) };
  }
  return figures;
}

/**
 * Issue 36's verdicts: our side against each anchor that ran (the AI SDK, the v2 Client, the
 * floor, the SDK 1.x Client), each as the median of the per-round ratios to that anchor.
 */
function anchorFigures(table: PeerTable<PeerSide>, key: string, group: string): Figure[] {
  const ran = new Set(table.sides.map((entry) => entry.side));
  if (!ran.has("adapter")) return [];
  const figures: Figure[] = [];
  for (const { anchor, figures: targets } of anchorTargetsFor(table.transport)) {
    if (!ran.has(anchor)) continue;
    for (const [figureKey, verdict] of Object.entries(targets)) {
      const row = table.rows.find((candidate) => candidate.key === figureKey);
      if (row === undefined) continue;
      const ours = summarizeAgainstBaseline(row.perRound, ["adapter", anchor], anchor);
      figures.push(
        compared(
          {
            id: `peers.${key}.${figureKey}.adapter.vs.${anchor}`,
            group,
            label: `${row.label}: mcp-tool-adapter against ${peerSideInfo(anchor).label}`,
            unit: row.unit,
            adapter: ours.adapter.median,
            raw: ours[anchor].median,
            ratio: ours.adapter.ratio,
          },
          verdict,
        ),
      );
    }
  }
  return figures;
}

function targetFor(
  figureKey: string,
  side: PeerSide,
  transport: PeerTransport,
): ((a: number, r: number, ratio: number) => TargetVerdict) | undefined {
  const call = CALL_TARGETS[transport][figureKey];
  if (call !== undefined) return call;
  if (figureKey === "import" && side === "adapter") return ratioAtMost(UMBRELLA_IMPORT_LIMIT);
  if (figureKey === "heap") return ratioAtMost(HEAP_LIMIT);
  return undefined;
}

/**
 * How precise this run's p50 ratios are: the per-round ratios' geometric mean and its 95% interval,
 * against the raw SDK Client and, when it ran, against the floor (the target that needs the most
 * rounds to decide: see BenchSettings.peerSequentialRounds).
 */
function p50Precision(table: PeerTable<PeerSide>): string {
  const perRound = table.rows.find((row) => row.key === "echo.p50")?.perRound ?? [];
  const against = (anchor: PeerSide): string => {
    const { estimate, low, high } = pairedRatioInterval(
      perRound.map((round) => round.adapter),
      perRound.map((round) => round[anchor]),
    );
    return Number.isFinite(estimate)
      ? `${estimate.toFixed(2)}×, 95% interval ${low.toFixed(2)}-${high.toFixed(2)}×`
      : "";
  };
  const raw = against("raw");
  if (raw === "") return "";
  const floor = table.sides.some((entry) => entry.side === FLOOR_SIDE) ? against(FLOOR_SIDE) : "";
  return `p50 ratio's geometric mean ${raw}${floor === "" ? "" : `; against the floor ${floor}`} (Student's t over the rounds: how far more rounds could move it); `;
}
