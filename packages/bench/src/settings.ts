import { ENGINE_SIDE_NAMES, type EngineSide } from "./peers/engine-sides.js";
import { PEER_SIDE_NAMES, type PeerSide } from "./peers/sides.js";

/** How much work one bench run does. `--quick` is only for checking that the bench runs. */
export interface BenchSettings {
  readonly name: "default" | "quick";
  /** Connect + handshake rounds per side over stdio (each spawns a server) and over HTTP. */
  readonly stdioConnectRounds: number;
  readonly httpConnectRounds: number;
  /** Full tools/list rounds per side against server-everything. */
  readonly discoverRounds: number;
  /**
   * Fresh worker processes per side (and fresh servers over stdio) for the server-everything
   * scenario; its rounds are spread over them.
   */
  readonly workerGenerations: number;
  /**
   * Untimed echo calls per side (in each generation) before the echo latency is timed, over
   * stdio and over HTTP. Enough for V8 to finish optimising either client's call path: over
   * stdio a client's CPU per call falls from about 400 µs to about 70 µs in the first few
   * thousand calls, and with only a few hundred the rounds compared two half-optimised
   * processes, whose ratio swung from 0.82 to 1.14 between runs. An HTTP call costs about 40
   * times the CPU of a stdio call, so far fewer calls reach the same state.
   */
  readonly stdioWarmupCalls: number;
  readonly httpWarmupCalls: number;
  /** Timed sequential echo calls per side, split over `latencyRounds` alternating rounds. */
  readonly latencyCalls: number;
  readonly latencyRounds: number;
  /** Calls kept in flight at once in the throughput runs. */
  readonly inFlight: number;
  /** Calls per throughput round, and rounds per side. */
  readonly throughputCalls: number;
  readonly throughputRounds: number;
  /** The generated server: tool count, page size, and one child process per side per round. */
  readonly manyTools: number;
  readonly manyToolsPageSize: number;
  readonly manyToolsRounds: number;
  /** In-memory invokes before the first heap reading, and after it. */
  readonly heapWarmupInvokes: number;
  readonly heapInvokes: number;
  /** Leaf benchmarks (issue 2). */
  readonly validationBatches: number;
  readonly validationBatchSize: number;
  readonly compileSchemas: number;
  readonly compileRounds: number;
  readonly registrySmall: number;
  readonly registryLarge: number;
  readonly registryLookupBatches: number;
  readonly registryLookupBatchSize: number;
  /** Model tools (issue 16): registry size, per-call batches, conversion rounds. */
  readonly modelToolsTools: number;
  readonly modelToolsCallBatches: number;
  readonly modelToolsCallBatchSize: number;
  readonly modelToolsConvertRounds: number;
  /** Fresh processes per provider format for the first conversion at scale (issue 36). */
  readonly coldConversionRounds: number;
  /**
   * cli-startup (issue 37 §5): rounds per published server (server-everything, server-memory,
   * server-filesystem), each round a fresh `call`, server-alone and floor process; the probe
   * server keeps its own 15.
   */
  readonly cliStartupServerRounds: number;
  /** listing-cache (issue 37 §2): rounds of `call` and of an agent start, each with a cold and a warm cache. */
  readonly listingCacheRounds: number;
  /**
   * The peer comparison (issue 17's method): rounds (each a fresh node process per side, the
   * order rotating), echo calls per process (untimed warm-up, sequential, then with
   * `peerInFlight` outstanding) and the tool count of the server each side lists.
   */
  readonly peerRounds: number;
  readonly peerWarmupCalls: number;
  readonly peerSequentialCalls: number;
  readonly peerConcurrentCalls: number;
  readonly peerInFlight: number;
  readonly peerListTools: number;
  /**
   * Extra rounds of the peer comparison that run the sequential stage alone (a fresh process per
   * side: import, connect, warm-up, the sequential calls, then exit), per transport. Their p50 and
   * sequential CPU join those of the full rounds, so those two figures are medians over
   * `peerRounds` + these rounds. Why: over stdio a sequential call is a few hundred µs of wake-ups
   * between two processes, and on a 2-vCPU machine each process's p50 depends on where the
   * scheduler places it and its server (same vCPU or not, fixed per process, sometimes changing
   * mid-run): quiet per-round ratios of ours to the floor spread from 1.0× to 1.6×, so the median
   * of four full rounds cannot decide a 10% target. The stage costs about a second per side, a
   * full round a minute. Over HTTP a call is ten times longer and the spread is small: none by
   * default.
   */
  readonly peerSequentialRounds: { readonly stdio: number; readonly http: number };
  /**
   * The engine comparison (issue 21), on the peer comparison's machinery: rounds, and echo calls
   * per process over each transport. An HTTP call costs the client several times the CPU of a
   * stdio call, so HTTP gets fewer, to keep both transports' run near a minute on a quiet machine.
   */
  readonly engineRounds: number;
  readonly engineCalls: { readonly stdio: EngineCalls; readonly http: EngineCalls };
  /**
   * Many servers at once (issue 36): stdio servers in one MCPServerSet, tools each, calls spread
   * over them (with `inFlight` outstanding), and rounds (a fresh process each).
   */
  readonly serverSetServers: number;
  readonly serverSetToolsPerServer: number;
  readonly serverSetCalls: number;
  readonly serverSetRounds: number;
  /**
   * The gateway bench's echo calls per process on each transport it runs (--gateway-calls), in
   * place of its own plan (scenarios/gateway.ts); e.g. a longer warm-up to time a warmed-up gateway.
   */
  readonly gatewayCalls?: EngineCalls;
}

/** Echo calls per process: untimed warm-up, sequential, then with `peerInFlight` outstanding. */
export interface EngineCalls {
  readonly warmup: number;
  readonly sequential: number;
  readonly concurrent: number;
}

export const DEFAULT_SETTINGS: BenchSettings = {
  name: "default",
  stdioConnectRounds: 64,
  httpConnectRounds: 24,
  discoverRounds: 20,
  workerGenerations: 4,
  stdioWarmupCalls: 10_000,
  httpWarmupCalls: 1_000,
  latencyCalls: 4_000,
  latencyRounds: 20,
  inFlight: 50,
  throughputCalls: 1_000,
  throughputRounds: 12,
  manyTools: 5_000,
  manyToolsPageSize: 100,
  manyToolsRounds: 3,
  heapWarmupInvokes: 5_000,
  heapInvokes: 100_000,
  validationBatches: 300,
  validationBatchSize: 1_000,
  compileSchemas: 5_000,
  compileRounds: 3,
  registrySmall: 100,
  registryLarge: 10_000,
  registryLookupBatches: 300,
  registryLookupBatchSize: 1_000,
  modelToolsTools: 5_000,
  modelToolsCallBatches: 200,
  modelToolsCallBatchSize: 1_000,
  modelToolsConvertRounds: 10,
  coldConversionRounds: 3,
  cliStartupServerRounds: 10,
  listingCacheRounds: 6,
  peerRounds: 5,
  peerWarmupCalls: 200,
  peerSequentialCalls: 2_000,
  peerConcurrentCalls: 20_000,
  peerInFlight: 50,
  peerListTools: 5_000,
  peerSequentialRounds: { stdio: 16, http: 0 },
  engineRounds: 3,
  engineCalls: {
    stdio: { warmup: 1_000, sequential: 2_000, concurrent: 10_000 },
    http: { warmup: 200, sequential: 500, concurrent: 1_500 },
  },
  serverSetServers: 20,
  serverSetToolsPerServer: 10,
  serverSetCalls: 2_000,
  serverSetRounds: 3,
};

export const QUICK_SETTINGS: BenchSettings = {
  name: "quick",
  stdioConnectRounds: 1,
  httpConnectRounds: 2,
  discoverRounds: 2,
  workerGenerations: 1,
  stdioWarmupCalls: 10,
  httpWarmupCalls: 10,
  latencyCalls: 40,
  latencyRounds: 2,
  inFlight: 50,
  throughputCalls: 100,
  throughputRounds: 1,
  manyTools: 300,
  manyToolsPageSize: 100,
  manyToolsRounds: 1,
  heapWarmupInvokes: 200,
  heapInvokes: 1_000,
  validationBatches: 20,
  validationBatchSize: 100,
  compileSchemas: 100,
  compileRounds: 1,
  registrySmall: 100,
  registryLarge: 1_000,
  registryLookupBatches: 20,
  registryLookupBatchSize: 100,
  modelToolsTools: 300,
  modelToolsCallBatches: 10,
  modelToolsCallBatchSize: 100,
  modelToolsConvertRounds: 1,
  coldConversionRounds: 1,
  cliStartupServerRounds: 1,
  listingCacheRounds: 1,
  peerRounds: 1,
  peerWarmupCalls: 20,
  peerSequentialCalls: 200,
  peerConcurrentCalls: 1_000,
  peerInFlight: 50,
  peerListTools: 300,
  peerSequentialRounds: { stdio: 1, http: 0 },
  engineRounds: 1,
  engineCalls: {
    stdio: { warmup: 20, sequential: 200, concurrent: 1_000 },
    http: { warmup: 20, sequential: 100, concurrent: 300 },
  },
  serverSetServers: 3,
  serverSetToolsPerServer: 2,
  serverSetCalls: 30,
  serverSetRounds: 1,
};

/** Which scenario groups to run. */
export type ScenarioName =
  | "leaf"
  | "model-tools"
  | "cold-conversion"
  | "tool-search"
  | "telemetry"
  | "stdio"
  | "http"
  | "many-tools"
  | "heap"
  | "server-set"
  | "peers-stdio"
  | "peers-http"
  | "engines-stdio"
  | "engines-http"
  | "cli-startup"
  | "listing-cache"
  | "code-mode"
  | "gateway-stdio"
  | "gateway-http";

export const SCENARIO_NAMES: readonly ScenarioName[] = [
  "leaf",
  "model-tools",
  "cold-conversion",
  "tool-search",
  "telemetry",
  "stdio",
  "http",
  "many-tools",
  "heap",
  "server-set",
  "peers-stdio",
  "peers-http",
  "engines-stdio",
  "engines-http",
  "cli-startup", // needs `pnpm build`: only with --only=cli-startup
  "listing-cache", // needs `pnpm build` too
  "code-mode",
  "gateway-stdio",
  "gateway-http",
];

/**
 * What runs without --only. The peer and engine comparisons are left out: they need `pnpm build`
 * first, and the peers take long and need Node >= 22; ask for them with --only=peers or
 * --only=engines (both transports).
 */
const OWN_SECTION_SCENARIOS: ReadonlySet<ScenarioName> = new Set([
  "tool-search",
  "cli-startup",
  "listing-cache",
  "code-mode",
  "gateway-stdio",
  "gateway-http",
]);

export const DEFAULT_SCENARIOS: readonly ScenarioName[] = SCENARIO_NAMES.filter(
  // These report in sections of their own (tool-search and code-mode count quality and tokens,
  // cli-startup needs `pnpm build`, gateway runs for minutes): ask for them with --only=.
  (name) => !name.startsWith("peers") && !name.startsWith("engines") && !OWN_SECTION_SCENARIOS.has(name),
);

/** Names --only accepts besides the scenarios: shorthands for several. */
const SCENARIO_ALIASES: Readonly<Record<string, readonly ScenarioName[]>> = {
  peers: ["peers-stdio", "peers-http"],
  engines: ["engines-stdio", "engines-http"],
  gateway: ["gateway-stdio", "gateway-http"],
};

/** The scenarios `--calibrate` runs: the side-by-side wall-time comparisons. */
export const CALIBRATED_SCENARIOS: readonly ScenarioName[] = ["stdio", "http"];

export interface BenchOptions {
  readonly settings: BenchSettings;
  readonly scenarios: readonly ScenarioName[];
  /**
   * A/A calibration: both sides of the server-everything comparison run the raw SDK, so every
   * ratio shows only how far this machine moves identical code between the two sides.
   */
  readonly calibrate: boolean;
  /** Where the JSON report goes. */
  readonly outFile: string;
  /** The peer comparison's options (--node, --sides, --from-source). */
  readonly peers: PeerOptions;
}

export interface PeerOptions {
  /**
   * The node binary the peer comparison runs on (--node=<path>): every side and the servers they
   * talk to, as on a host where that Node runs everything; default the one running the bench.
   * Sides whose current version needs a newer Node are left out, and say so.
   */
  readonly node?: string;
  /** Only these sides (--sides=adapter,langchain); the raw SDK baseline always runs. Default all. */
  readonly sides?: readonly PeerSide[];
  /**
   * Our packages from TypeScript source through tsx (--from-source), as the older scenarios run,
   * instead of their dist builds. Every side then runs under the tsx loader. For finding out how
   * much the way of running moves the figures; users run the dist build.
   */
  readonly fromSource: boolean;
  /** The engine comparison's sides (--engine-sides=engine-2026,raw-v2-2025); the raw v2 baseline always runs. */
  readonly engineSides?: readonly EngineSide[];
}

export class BenchUsageError extends Error {
  override readonly name = "BenchUsageError";
}

/** The `count` comma-separated positive integers of `--flag=1,2,3`, or a usage error naming the flag. */
function positiveIntegers(arg: string, count: number): number[] {
  return integersFrom(arg, count, 1, "positive");
}

/** The `count` comma-separated integers of `--flag=0,2`, each at least `least`, or a usage error naming the flag. */
function integersFrom(arg: string, count: number, least: number, kind: "positive" | "non-negative"): number[] {
  const [flag, value = ""] = arg.split("=", 2) as [string, string?];
  const numbers = value.split(",").map((part) => Number(part.replaceAll("_", "")));
  if (numbers.length !== count || !numbers.every((number) => Number.isInteger(number) && number >= least)) {
    throw new BenchUsageError(
      `${flag} takes ${count === 1 ? `a ${kind} integer` : `${count} comma-separated ${kind} integers`}; got "${value}"`,
    );
  }
  return numbers;
}

/** The names of `--flag=a,b` in `known`'s order, or a usage error listing what the flag takes. */
function namesFrom<Name extends string>(arg: string, known: readonly Name[]): Name[] {
  const [flag, value = ""] = arg.split("=", 2) as [string, string?];
  const names = value.split(",").filter((name) => name !== "");
  if (names.length === 0 || names.some((name) => !(known as readonly string[]).includes(name))) {
    throw new BenchUsageError(`${flag} takes a comma-separated list of ${known.join(", ")}; got "${value}"`);
  }
  return known.filter((name) => names.includes(name));
}

/**
 * Parses `--quick`, `--only=stdio,http` and `--out=<file>`. Unknown flags are errors, so a typo
 * does not silently run the long default bench.
 */
export function parseBenchArgs(argv: readonly string[], defaultOutFile: string): BenchOptions {
  let settings = DEFAULT_SETTINGS;
  let scenarios: readonly ScenarioName[] = DEFAULT_SCENARIOS;
  let node: string | undefined;
  let sides: readonly PeerSide[] | undefined;
  let engineSides: readonly EngineSide[] | undefined;
  let fromSource = false;
  let peerOverrides: Partial<BenchSettings> = {};
  let outFile = defaultOutFile;
  let calibrate = false;
  let only = false;
  for (const arg of argv) {
    if (arg === "--quick") {
      settings = QUICK_SETTINGS;
    } else if (arg.startsWith("--only=")) {
      const names = arg
        .slice("--only=".length)
        .split(",")
        .filter((name) => name !== "");
      const known = [...SCENARIO_NAMES, ...Object.keys(SCENARIO_ALIASES)];
      const unknown = names.filter((name) => !known.includes(name));
      if (names.length === 0 || unknown.length > 0) {
        throw new BenchUsageError(`--only takes a comma-separated list of ${known.join(", ")}; got "${arg.slice(7)}"`);
      }
      const expanded = names.flatMap((name): readonly string[] => SCENARIO_ALIASES[name] ?? [name]);
      scenarios = SCENARIO_NAMES.filter((name) => expanded.includes(name));
      only = true;
    } else if (arg.startsWith("--out=") && arg.length > "--out=".length) {
      outFile = arg.slice("--out=".length);
    } else if (arg.startsWith("--node=") && arg.length > "--node=".length) {
      node = arg.slice("--node=".length);
    } else if (arg.startsWith("--sides=")) {
      sides = namesFrom(arg, PEER_SIDE_NAMES);
    } else if (arg.startsWith("--engine-sides=")) {
      engineSides = namesFrom(arg, ENGINE_SIDE_NAMES);
    } else if (arg.startsWith("--engine-rounds=")) {
      peerOverrides = { ...peerOverrides, engineRounds: positiveIntegers(arg, 1)[0]! };
    } else if (arg.startsWith("--engine-calls=")) {
      const [warmup, sequential, concurrent] = positiveIntegers(arg, 3) as [number, number, number];
      const calls = { warmup, sequential, concurrent };
      peerOverrides = { ...peerOverrides, engineCalls: { stdio: calls, http: calls } };
    } else if (arg.startsWith("--peer-rounds=")) {
      peerOverrides = { ...peerOverrides, peerRounds: positiveIntegers(arg, 1)[0]! };
    } else if (arg.startsWith("--peer-sequential-rounds=")) {
      const [stdio, http] = integersFrom(arg, 2, 0, "non-negative") as [number, number];
      peerOverrides = { ...peerOverrides, peerSequentialRounds: { stdio, http } };
    } else if (arg.startsWith("--peer-calls=")) {
      const [peerWarmupCalls, peerSequentialCalls, peerConcurrentCalls] = positiveIntegers(arg, 3);
      peerOverrides = { ...peerOverrides, peerWarmupCalls, peerSequentialCalls, peerConcurrentCalls };
    } else if (arg.startsWith("--gateway-calls=")) {
      const [warmup, sequential, concurrent] = positiveIntegers(arg, 3) as [number, number, number];
      peerOverrides = { ...peerOverrides, gatewayCalls: { warmup, sequential, concurrent } };
    } else if (arg === "--from-source") {
      fromSource = true;
    } else if (arg === "--calibrate") {
      calibrate = true;
    } else if (arg === "--") {
      // pnpm passes a separator through; nothing follows it that we need to treat differently.
    } else {
      throw new BenchUsageError(
        `Unknown argument "${arg}". Usage: pnpm bench [--quick] [--calibrate] [--only=${SCENARIO_NAMES.join(",")},peers,engines,gateway] [--out=<file.json>] [--node=<node binary>] [--sides=<side,...>] [--peer-rounds=<n>] [--peer-sequential-rounds=<stdio>,<http>] [--peer-calls=<warm-up>,<sequential>,<in flight>] [--engine-sides=<side,...>] [--engine-rounds=<n>] [--engine-calls=<warm-up>,<sequential>,<in flight>] [--gateway-calls=<warm-up>,<sequential>,<in flight>] [--from-source]`,
      );
    }
  }
  if (calibrate) {
    const uncalibrated = scenarios.filter((name) => !CALIBRATED_SCENARIOS.includes(name));
    if (only && uncalibrated.length > 0) {
      throw new BenchUsageError(
        `--calibrate compares the raw SDK with itself in the ${CALIBRATED_SCENARIOS.join(" and ")} scenarios only; drop ${uncalibrated.join(", ")} from --only`,
      );
    }
    scenarios = scenarios.filter((name) => CALIBRATED_SCENARIOS.includes(name));
  }
  return {
    settings: { ...settings, ...peerOverrides },
    scenarios,
    calibrate,
    outFile,
    peers: {
      ...(node === undefined ? {} : { node }),
      ...(sides === undefined ? {} : { sides }),
      ...(engineSides === undefined ? {} : { engineSides }),
      fromSource,
    },
  };
}
