/** What a call worker is told: where to call, and how many calls of each kind. */
export interface CallJob {
  readonly target:
    | { readonly kind: "stdio"; readonly command: string; readonly args: readonly string[] }
    | { readonly kind: "http"; readonly url: string; readonly pid?: number };
  readonly warmupCalls: number;
  readonly sequentialCalls: number;
  readonly concurrentCalls: number;
  readonly inFlight: number;
  /**
   * The process in the middle (a gateway or the floor proxy: the stdio target's process, or the
   * HTTP target's `pid`) is sent PHASE_SIGNAL at the end of each phase, so the CPU time it reports
   * can be split by phase (see CpuReport).
   */
  readonly markPhases?: boolean;
}

/** What a call worker measured, in its own process. */
export interface CallJobResult {
  /** Median latency of the sequential calls. */
  readonly p50Us: number;
  /** The client process's CPU time (user + system) per sequential call. */
  readonly cpuUsPerCall: number;
  /** Throughput with `inFlight` calls outstanding. */
  readonly concurrentCallsPerSecond: number;
  /** Median latency of a call while `inFlight` calls are outstanding. */
  readonly inFlightP50Us: number;
  /** The client process's CPU time per call while `inFlight` calls are outstanding. */
  readonly inFlightCpuUsPerCall: number;
}

/** Sent to the process in the middle when a phase ends (warm-up, sequential, in flight). */
export const PHASE_SIGNAL = "SIGUSR2";

/** What the process in the middle (gateway or floor proxy) reports of itself at the end of a round. */
export interface CpuReport {
  /** User + system CPU time from after its upstream connected to when its client left (µs). */
  readonly cpuUs: number;
  /** The same clock read at each PHASE_SIGNAL: the ends of warm-up, sequential calls and calls in flight (µs). */
  readonly phaseEndsUs: readonly number[];
  /** The system (kernel) part of cpuUs, and of each phase end: the rest is user time. */
  readonly systemUs?: number;
  readonly phaseSystemEndsUs?: readonly number[];
  /**
   * The part of cpuUs run on the process's main thread, and of each phase end (Linux, from
   * `/proc/self/task/<pid>/schedstat`); the rest ran on its helper threads (for Node: V8's
   * background compilers and garbage collector, libuv's pool). Absent where it cannot be read.
   */
  readonly mainThreadUs?: number;
  readonly phaseMainThreadEndsUs?: readonly number[];
}
