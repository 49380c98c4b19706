import { cpus, loadavg } from "node:os";
import { listOwnedProcesses } from "@mcp-tool-adapter/test-servers";
import type { BenchContext } from "./context.js";
import { compared, exactly, single, type Figure } from "./figures.js";
import { SIDES } from "./interleave.js";
import { runCliStartupScenario } from "./scenarios/cli-startup.js";
import { runListingCacheScenario } from "./scenarios/listing-cache.js";
import { runCodeModeScenario } from "./scenarios/code-mode.js";
import { runEverythingScenario } from "./scenarios/everything.js";
import { runGatewayScenario } from "./scenarios/gateway.js";
import { runHeapScenario } from "./scenarios/heap.js";
import { runLeafScenario } from "./scenarios/leaf.js";
import { runManyToolsScenario } from "./scenarios/many-tools.js";
import { runModelToolsScenario } from "./scenarios/model-tools.js";
import { runColdConversionScenario } from "./scenarios/cold-conversion.js";
import { runToolSearchScenario } from "./scenarios/tool-search.js";
import type { PeerTable } from "./peers/peer-table.js";
import { runEnginesScenario } from "./scenarios/engines.js";
import { runPeersScenario } from "./scenarios/peers.js";
import { runServerSetScenario } from "./scenarios/server-set.js";
import type { BenchSettings, PeerOptions, ScenarioName } from "./settings.js";
import { runTelemetryScenario } from "./scenarios/telemetry.js";
import { WarningRecorder, type RecordedWarning } from "./warnings.js";

/** What one run produced; written as JSON to reports/bench.json. */
export interface BenchReport {
  readonly startedAt: string;
  readonly durationMs: number;
  readonly environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    /** os.loadavg() (1, 5, 15 minutes) when the run started and when it ended. */
    loadAverage: { start: number[]; end: number[] };
  };
  readonly settings: BenchSettings;
  readonly scenarios: readonly ScenarioName[];
  /** True for an A/A calibration run: both sides ran the raw SDK. */
  readonly calibrate: boolean;
  readonly figures: readonly Figure[];
  readonly warnings: readonly RecordedWarning[];
  readonly targets: { readonly passed: number; readonly failed: readonly string[] };
  /** The peer comparison (issue 17) and the engine comparison (issue 21) per transport, when they ran. */
  readonly peerTables: readonly PeerTable[];
}

export interface RunBenchOptions {
  settings: BenchSettings;
  scenarios: readonly ScenarioName[];
  /** A/A calibration (see BenchOptions.calibrate). Default false. */
  calibrate?: boolean;
  /** The peer comparison's options; default: the bench's own node, every side, published builds. */
  peers?: PeerOptions;
  progress?: (message: string) => void;
}

const GROUP = "whole run";

export async function runBench(options: RunBenchOptions): Promise<BenchReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const loadAtStart = loadavg();
  const warnings = new WarningRecorder();
  const calibrate = options.calibrate ?? false;
  const context: BenchContext = {
    settings: options.settings,
    warnings,
    calibrate,
    peers: options.peers ?? { fromSource: false },
    progress: options.progress ?? (() => undefined),
  };
  const figures: Figure[] = [];
  const peerTables: PeerTable[] = [];
  // Anything already running (tsx's esbuild service) is the toolchain's, not the bench's.
  const preexisting = new Set(listOwnedProcesses().map((info) => info.pid));
  warnings.start();
  try {
    const wanted = new Set(options.scenarios);
    // Cheapest and most sensitive to a quiet machine first.
    if (wanted.has("leaf")) figures.push(...runLeafScenario(context));
    if (wanted.has("model-tools")) figures.push(...(await runModelToolsScenario(context)));
    if (wanted.has("cold-conversion")) figures.push(...(await runColdConversionScenario(context)));
    if (wanted.has("tool-search")) figures.push(...(await runToolSearchScenario(context)));
    if (wanted.has("telemetry")) figures.push(...(await runTelemetryScenario(context)));
    if (wanted.has("stdio")) figures.push(...(await runEverythingScenario("stdio", context)));
    if (wanted.has("http")) figures.push(...(await runEverythingScenario("streamable-http", context)));
    if (wanted.has("many-tools")) figures.push(...(await runManyToolsScenario(context)));
    if (wanted.has("heap")) figures.push(...(await runHeapScenario(context)));
    if (wanted.has("server-set")) figures.push(...(await runServerSetScenario(context)));
    if (wanted.has("code-mode")) figures.push(...(await runCodeModeScenario(context)));
    for (const transport of ["stdio", "streamable-http"] as const) {
      if (!wanted.has(transport === "stdio" ? "peers-stdio" : "peers-http")) continue;
      const { figures: peerFigures, table } = await runPeersScenario(transport, context);
      figures.push(...peerFigures);
      peerTables.push(table);
    }
    for (const transport of ["stdio", "streamable-http"] as const) {
      if (!wanted.has(transport === "stdio" ? "engines-stdio" : "engines-http")) continue;
      const { figures: engineFigures, table } = await runEnginesScenario(transport, context);
      figures.push(...engineFigures);
      peerTables.push(table);
    }
    if (wanted.has("cli-startup")) figures.push(...(await runCliStartupScenario(context)));
    if (wanted.has("listing-cache")) figures.push(...(await runListingCacheScenario(context)));
    const gatewayTransports = (["stdio", "http"] as const).filter((transport) => wanted.has(`gateway-${transport}`));
    if (gatewayTransports.length > 0) figures.push(...(await runGatewayScenario(context, gatewayTransports)));
  } finally {
    warnings.stop();
  }
  const listenerWarning = "MaxListenersExceededWarning";
  const adapterWarnings =
    warnings.countDuring(listenerWarning, "adapter") + warnings.countOutsideSides(listenerWarning, SIDES);
  figures.push(
    {
      ...compared({
        id: "run.max-listeners-warnings",
        group: GROUP,
        label: `${listenerWarning} events`,
        unit: "count",
        adapter: adapterWarnings,
        raw: warnings.countDuring(listenerWarning, "raw"),
        showRatio: false,
        note: "process 'warning' events while each side ran (warnings outside both sides count against the adapter); details in the JSON report",
      }),
      target: exactly(0, "none")(adapterWarnings),
    },
    single(
      {
        id: "run.leftover-processes",
        group: GROUP,
        label: "child processes left running after the run",
        unit: "count",
        value: await leftoverProcessCount(preexisting),
      },
      exactly(0, "none"),
    ),
  );
  const judged = figures.filter((figure) => figure.target !== undefined);
  const failed = judged.filter((figure) => figure.target?.pass === false).map((figure) => figure.id);
  const cpuList = cpus();
  return {
    startedAt,
    durationMs: performance.now() - started,
    environment: {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      cpus: cpuList.length,
      cpuModel: cpuList[0]?.model ?? "unknown",
      loadAverage: { start: loadAtStart, end: loadavg() },
    },
    settings: options.settings,
    scenarios: options.scenarios,
    calibrate,
    figures,
    warnings: warnings.warnings,
    targets: { passed: judged.length - failed.length, failed },
    peerTables,
  };
}

/**
 * Processes the run started that are still alive: descendants (workers, servers, their children)
 * and anything carrying the run's leak marker (workers and stdio servers do), even re-parented.
 * Children are reaped asynchronously after close; give them a moment before calling them leaked.
 */
async function leftoverProcessCount(preexisting: ReadonlySet<number>): Promise<number> {
  const deadline = performance.now() + 5_000;
  const started = (): number => listOwnedProcesses().filter((info) => !preexisting.has(info.pid)).length;
  let left = started();
  while (left > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = started();
  }
  return left;
}
