export { runBench, type BenchReport, type RunBenchOptions } from "./run-bench.js";
export { formatNumber, formatReport } from "./format-table.js";
export {
  BenchUsageError,
  DEFAULT_SETTINGS,
  parseBenchArgs,
  QUICK_SETTINGS,
  SCENARIO_NAMES,
  type BenchOptions,
  type BenchSettings,
  type ScenarioName,
} from "./settings.js";
export type { Figure, TargetVerdict, Unit } from "./figures.js";
export type { RecordedWarning } from "./warnings.js";
export {
  summarize,
  quantile,
  median,
  medianPairedRatio,
  hodgesLehmannPairedShift,
  type PairedShift,
  type Summary,
} from "./stats.js";
