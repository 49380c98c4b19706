import type { Unit } from "../figures.js";
import type { ImportProbeResult, PeerSideResult, SequentialStageFigures } from "./peer-job.js";

interface FigureKindBase {
  readonly key: string;
  readonly label: string;
  readonly unit: Unit;
  /** True where more is better (throughput), so the table can say which way a ratio points. */
  readonly higherIsBetter?: boolean;
  /** A difference that can be near zero or negative: shown as a value, never as a ratio. */
  readonly ratioless?: boolean;
  /** No ratio to the floor side: the floor has nothing to measure here (it imports nothing). */
  readonly floorless?: boolean;
}

/** A figure of the sequential calls: read from a full run and from a run of that stage alone. */
interface SequentialFigureKind extends FigureKindBase {
  readonly stage: "sequential";
  readonly read: (result: SequentialStageFigures) => number;
}

/** A figure only a full run has. */
interface FullRunFigureKind extends FigureKindBase {
  readonly stage?: undefined;
  readonly read: (result: PeerSideResult) => number;
}

/** The figures of the peer table, each read from one side's result. */
export type PeerFigureKind = SequentialFigureKind | FullRunFigureKind;

export const PEER_FIGURE_KINDS: readonly PeerFigureKind[] = [
  { key: "echo.p50", label: "echo p50", unit: "ms", stage: "sequential", read: (r) => r.p50Ms },
  {
    key: "cpu.sequential",
    label: "client CPU per call, sequential",
    unit: "µs",
    stage: "sequential",
    read: (r) => r.sequentialCpuMicros,
  },
  { key: "cpu.in-flight", label: "client CPU per call, 50 in flight", unit: "µs", read: (r) => r.concurrentCpuMicros },
  {
    key: "throughput",
    label: "throughput, 50 in flight",
    unit: "calls/s",
    higherIsBetter: true,
    read: (r) => r.callsPerSecond,
  },
  { key: "import", label: "time to import the package", unit: "ms", floorless: true, read: (r) => r.importMs },
  { key: "heap", label: "live heap after warm-up", unit: "MB", read: (r) => r.heapAfterWarmupMb },
  {
    key: "heap.growth",
    label: "heap growth over the measured calls",
    unit: "MB",
    ratioless: true,
    read: (r) => r.heapAfterCallsMb - r.heapAfterWarmupMb,
  },
  {
    // The judged one: the first run of the calls also pays once for what stays (V8's optimized
    // code and bytecode, a connection per call in flight), which is not growth with the calls.
    key: "heap.repeat-growth",
    label: "heap growth over the same calls again",
    unit: "MB",
    ratioless: true,
    read: (r) => r.heapAfterRepeatMb - r.heapAfterCallsMb,
  },
  { key: "list", label: "connect + list the generated tools", unit: "ms", read: (r) => r.listMs ?? Number.NaN },
  { key: "list.cpu", label: "connect + list, client CPU", unit: "ms", read: (r) => r.listCpuMs ?? Number.NaN },
  {
    key: "list.rss",
    label: "connect + list, peak RSS of the process",
    unit: "MB",
    read: (r) => r.listPeakRssMb ?? Number.NaN,
  },
  {
    // Shown, not judged: it depends on how much heap the side had committed before the listing.
    key: "list.rss.rise",
    label: "connect + list, that peak above the RSS at its start",
    unit: "MB",
    ratioless: true,
    read: (r) => r.listRssRiseMb ?? Number.NaN,
  },
  { key: "connect", label: "connect + handshake", unit: "ms", read: (r) => r.connectMs },
];

/** The import probes' one figure. */
export const readProbe = (result: ImportProbeResult): number => result.importMs;
