/** What a call worker is told: where to call, and how many calls of each kind. */
export interface CallJob {
  readonly target:
    | { readonly kind: "stdio"; readonly command: string; readonly args: readonly string[] }
    | { readonly kind: "http"; readonly url: string };
  readonly warmupCalls: number;
  readonly sequentialCalls: number;
  readonly concurrentCalls: number;
  readonly inFlight: number;
}

/** What a call worker measured, in its own process. */
export interface CallJobResult {
  /** Median latency of the sequential calls. */
  readonly p50Us: number;
  /** The client process's CPU time (user + system) per sequential call. */
  readonly cpuUsPerCall: number;
  /** Throughput with `inFlight` calls outstanding. */
  readonly concurrentCallsPerSecond: number;
}

/** What the gateway process reports of itself at the end of a round: CPU time spent serving. */
export interface GatewayCpuReport {
  /** User + system CPU time from after its upstream connected to when its client left (µs). */
  readonly cpuUs: number;
}
