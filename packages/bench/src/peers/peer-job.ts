import type { PeerTarget } from "./peer-client.js";
import type { EngineSide } from "./engine-sides.js";
import type { PeerSide } from "./sides.js";

/** Every side a peer worker can run: the peers of issue 17 and the engine sides of issue 21. */
export type WorkerSide = PeerSide | EngineSide;

/** The tool every call goes to, and its arguments. */
export interface PeerCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
}

/** What one fresh peer worker process measures: one side, start to finish. */
export interface PeerSideJob {
  readonly kind: "side";
  readonly side: WorkerSide;
  /** server-everything, whose `echo` is called. */
  readonly target: PeerTarget;
  /** The call to make; default server-everything's `echo` with a `message`. */
  readonly call?: PeerCall;
  /** The generated server whose tools are listed, and how many it has; no listing without it. */
  readonly listTarget?: PeerTarget;
  readonly expectedTools?: number;
  readonly warmupCalls: number;
  readonly sequentialCalls: number;
  readonly concurrentCalls: number;
  readonly inFlight: number;
  /**
   * "sequential": the process ends after the sequential calls (import, connect, warm-up, the heap
   * after warm-up, the timed sequential calls, exactly as a full run does up to there) and reports
   * their figures only. The comparison's extra rounds for the p50 use it (see peerSequentialRounds).
   */
  readonly stage?: "sequential";
}

/** Import probes: a fresh process that only imports one package, for the import-time targets. */
export type ImportProbe = "adapter-package" | "sdk-client";

export interface ImportProbeJob {
  readonly kind: "import";
  readonly probe: ImportProbe;
}

export type PeerJob = PeerSideJob | ImportProbeJob;

/** The figures of the sequential calls: a full run has them, and so has a run of that stage alone. */
export interface SequentialStageFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly sequentialCpuMicros: number;
}

/** A run of the sequential stage alone (a job with `stage: "sequential"`). */
export interface PeerSequentialResult extends SequentialStageFigures {
  readonly kind: "sequential";
  readonly side: WorkerSide;
  readonly node: string;
}

/** One side's figures from one fresh process. Times in ms, CPU in µs per call, heap in MB. */
export interface PeerSideResult extends SequentialStageFigures {
  readonly kind: "side";
  readonly side: WorkerSide;
  readonly node: string;
  /** Loading the library (and the transport it needs) with `await import()`, the first thing the process does. */
  readonly importMs: number;
  readonly connectMs: number;
  /** Heap in use after full GCs, right after the warm-up calls. */
  readonly heapAfterWarmupMb: number;
  /** Heap in use after full GCs once every call has run. */
  readonly heapAfterCallsMb: number;
  /** Heap in use after full GCs once the same calls ran a second time (untimed). */
  readonly heapAfterRepeatMb: number;
  readonly concurrentCpuMicros: number;
  readonly callsPerSecond: number;
  /** Listing every tool of the generated server on a second connection, wall time and client CPU (when the job lists). */
  readonly listMs?: number;
  readonly listCpuMs?: number;
  /** The process's peak resident memory while listing (Linux only). */
  readonly listPeakRssMb?: number;
  /** How far that peak rose above the resident memory at the start of the listing (Linux only). */
  readonly listRssRiseMb?: number;
  readonly toolCount?: number;
}

export interface ImportProbeResult {
  readonly kind: "import";
  readonly probe: ImportProbe;
  readonly node: string;
  readonly importMs: number;
}

export type PeerResult = PeerSideResult | PeerSequentialResult | ImportProbeResult;

/** The worker prints its result on one stdout line after this marker; libraries may print other lines. */
export const RESULT_MARKER = "@@peer-result@@ ";
