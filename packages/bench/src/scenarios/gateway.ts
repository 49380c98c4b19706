import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { everythingStdioServer, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import type { ServerEntries } from "mcp-tool-adapter";
import type { BenchContext } from "../context.js";
import { compared, ratioAtMost, single, type Figure } from "../figures.js";
import type { CallJob, CallJobResult } from "../gateway/call-job.js";
import {
  middleCpuPerCall,
  runCallWorker,
  startHttpFloor,
  startHttpGateway,
  stdioFloorCommand,
  stdioGatewayCommand,
  type GatewayRunMode,
  type MiddleCpuPerCall,
} from "../gateway/run-processes.js";
import { findNginx, startHopFloor, type RunningHopFloor } from "../gateway/http-hop-floor.js";
import { buildRelayFloor, relayFloorCommand } from "../gateway/relay-floor-build.js";
import { staleBuilds } from "../peers/dist-check.js";
import { median, medianPairedRatio } from "../stats.js";

const GROUP = "Gateway overhead (issue 34)";
/** Issue 34's target: p50 through the gateway at most this many times the direct p50. */
const P50_RATIO_LIMIT = 1.3;
/**
 * What the gateway may cost beyond the proxy floor (a bare Node forwarder, one parse and one
 * serialization per message): p50 sequential at most this many times the floor's. Issue 34's own
 * target is against direct, and over stdio even the floor misses it on a two-core machine; this one
 * judges what is the gateway's own doing.
 */
const FLOOR_P50_RATIO_LIMIT = 1.15;
const IN_FLIGHT = 50;
/**
 * Rounds per transport, and echo calls per worker process. HTTP calls cost far more CPU, so fewer
 * timed ones.
 *
 * The warm-up is the same number of calls for every process a timed call passes through, so none is
 * timed while V8 still compiles its call path and another is not. Over stdio every side starts its
 * own server (and middle) per round, so each gets the same 1,000. Over HTTP server-everything (and
 * nginx) serve the whole run while the gateway and the proxy floor are fresh per round: with 300
 * warm-up calls a fresh middle was timed over its calls 301-900 against a server warm since the first
 * round; after 3,000 its CPU per sequential call was 0.36-0.86× (gateway) and 0.41-0.57× (proxy
 * floor) of that (docs/performance.md, "Gateway overhead"). So every HTTP side's client makes 3,000 untimed
 * calls first: each middle has served 3,000 before its timed calls, and the shared server and nginx
 * at least as many.
 */
const FULL = {
  rounds: 5,
  stdio: { warmupCalls: 1_000, sequentialCalls: 2_000, concurrentCalls: 5_000 },
  http: { warmupCalls: 3_000, sequentialCalls: 600, concurrentCalls: 1_500 },
};
const QUICK = {
  rounds: 1,
  stdio: { warmupCalls: 20, sequentialCalls: 50, concurrentCalls: 100 },
  http: { warmupCalls: 20, sequentialCalls: 50, concurrentCalls: 100 },
};

export type Transport = "stdio" | "http";
/**
 * direct: the client on server-everything; gateway: through ours; floor: through the bare Node
 * proxy (proxy-floor.ts over stdio, http-proxy-floor.ts over HTTP); relay: through the native zero-parse relay (relay-floor.c, stdio
 * only, when a C compiler is present); hop: through nginx as a plain proxy_pass (http-hop-floor.ts,
 * HTTP only, when nginx is installed).
 */
type Side = "direct" | "gateway" | "floor" | "relay" | "hop";
/** The native floors this run has: the relay's binary (stdio) and nginx (HTTP); undefined when skipped. */
interface NativeFloors {
  readonly relayPath: string | undefined;
  readonly nginx: string | undefined;
}
/** One side of one round: what its client measured, and (gateway and floor) the middle process's own CPU per call. */
type SideResult = CallJobResult & { readonly middleCpu?: MiddleCpuPerCall | undefined };

/**
 * Echo calls to server-everything, directly, through the gateway (single-server mode, its own
 * process, the upstream on the same transport as the client), through the proxy floor (the least a
 * Node process in the middle does: proxy-floor.ts over stdio, http-proxy-floor.ts over HTTP) and,
 * over stdio, through the relay floor (relay-floor.c, compiled for the run: the least any process
 * in the middle does; skipped without a C compiler), over HTTP through nginx (the HTTP hop floor;
 * skipped without nginx), with the SDK 1.x Client
 * in a fresh process per side and round; the side that goes first rotates by round. Per-call p50
 * and the client's CPU per call come from sequential calls and from calls kept 50 in flight;
 * throughput from the latter.
 */
export async function runGatewayScenario(context: BenchContext, transports: readonly Transport[]): Promise<Figure[]> {
  const plan = context.settings.name === "quick" ? QUICK : FULL;
  const mode: GatewayRunMode = { fromSource: context.peers.fromSource };
  if (!mode.fromSource) {
    const stale = await staleBuilds(["@mcp-tool-adapter/gateway"]);
    if (stale.length > 0) {
      throw new Error(
        `the gateway bench measures our published builds, and these are missing or out of date: ${stale.join("; ")}. Run \`pnpm build\` first (or pass --from-source).`,
      );
    }
  }
  const figures: Figure[] = [];
  // Only what the asked-for transports need: the relay is compiled for stdio, nginx looked up for HTTP.
  const relay = transports.includes("stdio")
    ? await buildRelayFloor()
    : { kind: "skipped" as const, reason: "stdio was not asked for" };
  const nginx = transports.includes("http") ? findNginx() : undefined;
  const floors: NativeFloors = { relayPath: relay.kind === "built" ? relay.path : undefined, nginx };
  const skipped = {
    stdio: relay.kind === "skipped" ? relay.reason : undefined,
    http: nginx === undefined ? "nginx is not installed" : undefined,
  };
  try {
    for (const transport of transports) {
      context.progress(`${GROUP}: ${transport}, ${plan.rounds} rounds per side`);
      const asked = context.settings.gatewayCalls;
      const counts =
        asked === undefined
          ? plan[transport]
          : { warmupCalls: asked.warmup, sequentialCalls: asked.sequential, concurrentCalls: asked.concurrent };
      const calls = { ...counts, inFlight: IN_FLIGHT };
      const results = await measure(transport, { rounds: plan.rounds, calls, floors }, mode);
      figures.push(...figuresFor(transport, results, plan.rounds));
      figures.push(...nativeFloorFigures(transport, results, plan.rounds, skipped[transport]));
    }
  } finally {
    if (relay.kind === "built") await relay.remove();
  }
  return figures;
}

async function measure(
  transport: Transport,
  plan: { rounds: number; calls: Omit<CallJob, "target">; floors: NativeFloors },
  mode: GatewayRunMode,
): Promise<Record<Side, SideResult[]>> {
  const results: Record<Side, SideResult[]> = { direct: [], gateway: [], floor: [], relay: [], hop: [] };
  const { relayPath, nginx } = plan.floors;
  const sides: Side[] =
    transport === "http"
      ? ["direct", "gateway", "floor", ...(nginx === undefined ? [] : ["hop" as const])]
      : ["direct", "gateway", "floor", ...(relayPath === undefined ? [] : ["relay" as const])];
  const http = transport === "http" ? await startEverythingHttp({ mode: "streamableHttp" }) : undefined;
  // One nginx for every round, as there is one server-everything: it keeps nothing between calls.
  let hop: RunningHopFloor | undefined;
  try {
    if (http !== undefined && nginx !== undefined) hop = await startHopFloor(nginx, http.url);
    const upstream: ServerEntries =
      http === undefined
        ? { everything: { transport: "stdio", ...everythingStdioServer() } }
        : { everything: { transport: "streamable-http", url: http.url } };
    for (let round = 0; round < plan.rounds; round += 1) {
      const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
      for (const side of order)
        results[side].push(await runSide(side, upstream, { http, calls: plan.calls, mode, relayPath, hop }));
    }
  } finally {
    await hop?.stop();
    await http?.stop();
  }
  return results;
}

async function runSide(
  side: Side,
  servers: ServerEntries,
  options: {
    http: { url: string } | undefined;
    calls: Omit<CallJob, "target">;
    mode: GatewayRunMode;
    relayPath: string | undefined;
    hop: RunningHopFloor | undefined;
  },
): Promise<SideResult> {
  const { http, calls, mode, relayPath, hop } = options;
  const server = everythingStdioServer();
  if (side === "direct") {
    const target =
      http === undefined
        ? { kind: "stdio" as const, command: server.command, args: server.args }
        : { kind: "http" as const, url: http.url };
    return runCallWorker({ ...calls, target });
  }
  // nginx is a master and a worker process, started once: no CPU report of its own.
  if (side === "hop") {
    if (hop === undefined) throw new Error("gateway bench: the HTTP hop floor side runs only when nginx started");
    return runCallWorker({ ...calls, target: { kind: "http", url: hop.url } });
  }
  const folder = await mkdtemp(join(tmpdir(), "gateway-bench-"));
  const cpuReportPath = join(folder, "cpu.json");
  const job = { ...calls, markPhases: true };
  try {
    let result: CallJobResult;
    if (side === "floor" && http === undefined) {
      const target = { kind: "stdio" as const, ...stdioFloorCommand({ upstream: server, cpuReportPath }) };
      result = await runCallWorker({ ...job, target });
    } else if (side === "relay") {
      if (relayPath === undefined) throw new Error("gateway bench: the relay floor side runs only when it was built");
      const target = { kind: "stdio" as const, ...relayFloorCommand(relayPath, { upstream: server, cpuReportPath }) };
      result = await runCallWorker({ ...job, target });
    } else if (http === undefined) {
      const target = { kind: "stdio" as const, ...stdioGatewayCommand({ servers, cpuReportPath }, mode) };
      result = await runCallWorker({ ...job, target });
    } else {
      const middle =
        side === "floor"
          ? await startHttpFloor({ upstreamUrl: http.url, cpuReportPath })
          : await startHttpGateway({ servers, cpuReportPath }, mode);
      try {
        result = await runCallWorker({ ...job, target: { kind: "http", url: middle.url, pid: middle.pid } });
      } finally {
        await middle.stop();
      }
    }
    return { ...result, middleCpu: await middleCpuPerCall(cpuReportPath, calls) };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function figuresFor(transport: Transport, results: Record<Side, SideResult[]>, rounds: number): Figure[] {
  const pick = (side: Side, key: keyof CallJobResult) => results[side].map((result) => result[key]);
  /** `side` against `base` (direct, or the floor), median of each side and median of the per-round ratios. */
  const figure = (key: keyof CallJobResult, side: Side = "gateway", base: Side = "direct") => ({
    adapter: median(pick(side, key)),
    raw: median(pick(base, key)),
    ratio: medianPairedRatio(pick(side, key), pick(base, key)),
  });
  const note = `"adapter" = through the gateway, "raw" = server-everything directly; median of ${rounds} rounds (a fresh client process per side and round, first side rotating), ratio = median of per-round ratios`;
  const versus = (label: string, id: string, unit: "µs" | "calls/s", key: keyof CallJobResult): Figure =>
    compared({
      id: `gateway.${transport}.${id}`,
      group: GROUP,
      label: `${transport}: ${label}`,
      unit,
      ...figure(key),
      note,
    });
  const figures: Figure[] = [
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
    versus("client CPU per call", "client-cpu", "µs", "cpuUsPerCall"),
    compared(
      {
        id: `gateway.${transport}.in-flight-p50`,
        group: GROUP,
        label: `${transport}: echo p50, ${IN_FLIGHT} in flight`,
        unit: "µs",
        ...figure("inFlightP50Us"),
        note,
      },
      ratioAtMost(P50_RATIO_LIMIT),
    ),
    versus(`client CPU per call, ${IN_FLIGHT} in flight`, "in-flight-client-cpu", "µs", "inFlightCpuUsPerCall"),
    versus(`throughput, ${IN_FLIGHT} in flight`, "in-flight", "calls/s", "concurrentCallsPerSecond"),
    ...middleCpuFigures(transport, "gateway", results.gateway),
  ];
  if (results.floor.length === 0) return figures;
  const floorNote = `"adapter" = through the proxy floor (${PROXY_FLOORS[transport]}), "raw" = server-everything directly; median of ${rounds} rounds, ratio = median of per-round ratios`;
  const againstFloorNote = `"adapter" = through the gateway, "raw" = through the proxy floor: what the gateway costs beyond any Node process in the middle; median of ${rounds} rounds, ratio = median of per-round ratios`;
  const floorFigure = (
    id: string,
    label: string,
    measured: { key: keyof CallJobResult; against: "direct" | "floor" },
    target?: Parameters<typeof compared>[1],
  ): Figure =>
    compared(
      {
        id: `gateway.${transport}.floor.${id}`,
        group: GROUP,
        label: `${transport}: ${label}`,
        unit: "µs",
        ...(measured.against === "direct"
          ? figure(measured.key, "floor", "direct")
          : figure(measured.key, "gateway", "floor")),
        note: measured.against === "direct" ? floorNote : againstFloorNote,
      },
      target,
    );
  return [
    ...figures,
    floorFigure("p50", "proxy floor: echo p50, sequential (vs direct)", { key: "p50Us", against: "direct" }),
    floorFigure("in-flight-p50", `proxy floor: echo p50, ${IN_FLIGHT} in flight (vs direct)`, {
      key: "inFlightP50Us",
      against: "direct",
    }),
    floorFigure(
      "gateway-p50",
      "gateway vs proxy floor: echo p50, sequential",
      { key: "p50Us", against: "floor" },
      ratioAtMost(FLOOR_P50_RATIO_LIMIT, "proxy floor"),
    ),
    floorFigure("gateway-in-flight-p50", `gateway vs proxy floor: echo p50, ${IN_FLIGHT} in flight`, {
      key: "inFlightP50Us",
      against: "floor",
    }),
    ...middleCpuFigures(transport, "floor", results.floor),
    ...middleCpuRatios(transport, results, rounds),
  ];
}

/** What each transport's proxy floor does, for the notes. */
const PROXY_FLOORS = {
  stdio:
    "proxy-floor.ts: a bare Node process forwarding newline-delimited JSON, each line parsed and serialized once, ids rewritten, no policy",
  http: "http-proxy-floor.ts: a bare Node process, a node:http server and undici on a keep-alive Agent, each message parsed and serialized once, ids and session ids mapped, no policy",
} as const;

/**
 * The gateway's own CPU per call against the proxy floor's, per phase: the median of the per-round
 * ratios (each round's gateway and floor ran at about the same load). What is left above 1 is ours.
 */
function middleCpuRatios(transport: Transport, results: Record<Side, SideResult[]>, rounds: number): Figure[] {
  const phase = (side: Side, key: "sequential" | "inFlight"): number[] =>
    results[side].flatMap((result) => {
      const value = result.middleCpu?.[key];
      return value === undefined ? [] : [value];
    });
  return (
    [
      ["sequential", "sequential", "sequential"],
      ["inFlight", "in-flight", `${IN_FLIGHT} in flight`],
    ] as const
  ).flatMap(([key, id, label]) => {
    const gateway = phase("gateway", key);
    const floor = phase("floor", key);
    if (gateway.length !== rounds || floor.length !== rounds) return [];
    return [
      compared({
        id: `gateway.${transport}.floor.gateway-cpu.${id}`,
        group: GROUP,
        label: `${transport}: gateway vs proxy floor: own CPU per call, ${label}`,
        unit: "µs",
        adapter: median(gateway),
        raw: median(floor),
        ratio: medianPairedRatio(gateway, floor),
        note: `"adapter" = the gateway process's CPU time (user + system), "raw" = the proxy floor process's, between the client's phase signals; what is above the floor is the gateway's own code; median of ${rounds} rounds, ratio = median of per-round ratios`,
      }),
    ];
  });
}

/** How each native floor is named in the table and its notes. */
const NATIVE_FLOORS = {
  stdio: {
    side: "relay",
    name: "relay floor (native, zero parse)",
    short: "relay floor",
    what: "relay-floor.c: a native process relaying bytes between the client's pipe and the server's, poll() and 64 KiB reads, no parsing",
  },
  http: {
    side: "hop",
    name: "HTTP hop floor (nginx proxy_pass)",
    short: "HTTP hop floor",
    what: "http-hop-floor.ts: nginx as a plain proxy_pass, keep-alive upstream, nothing buffered",
  },
} as const;

/**
 * The native floor's figures: what the hop alone costs against direct, and the gateway and the proxy
 * floor against it; or one line saying why the side did not run.
 */
function nativeFloorFigures(
  transport: Transport,
  results: Record<Side, SideResult[]>,
  rounds: number,
  skipped: string | undefined,
): Figure[] {
  const floor = NATIVE_FLOORS[transport];
  const idBase = `gateway.${transport}.${floor.side}`;
  if (skipped !== undefined)
    return [
      { id: `${idBase}.skipped`, group: GROUP, label: `${transport}: ${floor.name}: skipped, ${skipped}`, unit: "µs" },
    ];
  const pick = (side: Side, key: keyof CallJobResult) => results[side].map((result) => result[key]);
  const against = (id: string, what: string, side: Side, base: Side, key: keyof CallJobResult, note: string): Figure =>
    compared({
      id: `${idBase}.${id}`,
      group: GROUP,
      label: `${transport}: ${what}`,
      unit: "µs",
      adapter: median(pick(side, key)),
      raw: median(pick(base, key)),
      ratio: medianPairedRatio(pick(side, key), pick(base, key)),
      note: `${note}; median of ${rounds} rounds, ratio = median of per-round ratios`,
    });
  const floorNote = `"adapter" = through the ${floor.short} (${floor.what}), "raw" = server-everything directly: what the hop alone costs`;
  const gatewayNote = `"adapter" = through the gateway, "raw" = through the ${floor.short}: what the gateway costs beyond the hop itself`;
  const figures = [
    against("p50", `${floor.name}: echo p50, sequential (vs direct)`, floor.side, "direct", "p50Us", floorNote),
    against(
      "in-flight-p50",
      `${floor.name}: echo p50, ${IN_FLIGHT} in flight (vs direct)`,
      floor.side,
      "direct",
      "inFlightP50Us",
      floorNote,
    ),
    against(
      "gateway-p50",
      `gateway vs ${floor.short}: echo p50, sequential`,
      "gateway",
      floor.side,
      "p50Us",
      gatewayNote,
    ),
    against(
      "gateway-in-flight-p50",
      `gateway vs ${floor.short}: echo p50, ${IN_FLIGHT} in flight`,
      "gateway",
      floor.side,
      "inFlightP50Us",
      gatewayNote,
    ),
  ];
  const proxyNote = `"adapter" = through the proxy floor, "raw" = through the ${floor.short}: what a Node process with one parse and one serialization per message costs beyond the hop`;
  return [
    ...figures,
    ...(results.floor.length === 0
      ? []
      : [
          against(
            "floor-p50",
            `proxy floor vs ${floor.short}: echo p50, sequential`,
            "floor",
            floor.side,
            "p50Us",
            proxyNote,
          ),
        ]),
    ...(transport === "stdio" ? middleCpuFigures(transport, "relay", results.relay) : []),
  ];
}

/** How each process in the middle is named in the table, where its figures' ids start, and when its CPU clock starts. */
const MIDDLES = {
  gateway: { name: "the gateway", id: "gateway-cpu", from: "its upstream connected" },
  floor: {
    name: "the proxy floor",
    id: "floor.cpu",
    from: "it started its upstream (over stdio) or started listening (over HTTP)",
  },
  relay: { name: "the relay floor", id: "relay.cpu", from: "it started its upstream" },
} as const;

/** The middle process's own CPU per call: over every call of the round, and per phase. */
function middleCpuFigures(transport: Transport, side: keyof typeof MIDDLES, results: SideResult[]): Figure[] {
  const reports = results.flatMap((result) => (result.middleCpu === undefined ? [] : [result.middleCpu]));
  if (reports.length === 0) return [];
  const middle = MIDDLES[side];
  const who = `${middle.name}'s`;
  const idBase = `gateway.${transport}.${middle.id}`;
  const phases = (pick: (report: MiddleCpuPerCall) => number | undefined) =>
    reports.flatMap((report) => {
      const value = pick(report);
      return value === undefined ? [] : [value];
    });
  const sequential = phases((report) => report.sequential);
  const inFlight = phases((report) => report.inFlight);
  const allSystem = phases((report) => report.allSystem);
  const sequentialSystem = phases((report) => report.sequentialSystem);
  const sequentialMainThread = phases((report) => report.sequentialMainThread);
  /** One more figure of the middle's, when every round reported it. */
  const split = (values: number[], id: string, label: string, note: string): Figure[] =>
    values.length === 0
      ? []
      : [
          single({
            id: `${idBase}.${id}`,
            group: GROUP,
            label: `${transport}: ${who} ${label}`,
            unit: "µs",
            value: median(values),
            note: `${note}; median of ${values.length} rounds`,
          }),
        ];
  const measured = `${middle.name} process's CPU time (user + system)`;
  return [
    single({
      id: idBase,
      group: GROUP,
      label: `${transport}: ${who} own CPU per call`,
      unit: "µs",
      value: median(phases((report) => report.all)),
      note: `${measured} from after ${middle.from} to when its client left, over every call of the round (warm-up, sequential, ${IN_FLIGHT} in flight); median of ${reports.length} rounds`,
    }),
    ...(sequential.length === 0
      ? []
      : [
          single({
            id: `${idBase}.sequential`,
            group: GROUP,
            label: `${transport}: ${who} own CPU per call, sequential`,
            unit: "µs",
            value: median(sequential),
            note: `${measured} between the client's phase signals around its sequential calls; median of ${sequential.length} rounds`,
          }),
        ]),
    ...(inFlight.length === 0
      ? []
      : [
          single({
            id: `${idBase}.in-flight`,
            group: GROUP,
            label: `${transport}: ${who} own CPU per call, ${IN_FLIGHT} in flight`,
            unit: "µs",
            value: median(inFlight),
            note: `${measured} between the client's phase signals around its calls kept ${IN_FLIGHT} in flight; median of ${inFlight.length} rounds`,
          }),
        ]),
    ...split(
      allSystem,
      "system",
      "own system CPU per call (of the above, all calls)",
      `the system (kernel) part of ${middle.name} process's CPU time over every call of the round; the rest is user time`,
    ),
    ...split(
      sequentialSystem,
      "sequential.system",
      "own system CPU per call, sequential",
      `the system (kernel) part of ${middle.name} process's CPU time in the sequential phase`,
    ),
    ...split(
      sequentialMainThread,
      "sequential.main-thread",
      "own CPU per call on its main thread, sequential",
      `the part of ${middle.name} process's sequential CPU time its main thread ran (Linux schedstat); the rest ran on its helper threads (V8's background compilers and GC)`,
    ),
  ];
}
