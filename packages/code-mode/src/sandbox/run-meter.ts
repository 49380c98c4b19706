import type { RunObserver } from "./run-types.js";

/** Milliseconds on a clock every thread of the process shares (each thread's `performance.now()` has its own origin). */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

const CPU_USED = 0;
const SLICE_START = 1;
const DROPPED_LOG_LINES = 2;
const IDLE = -1n;

/**
 * The CPU clock and the dropped-line count of a run in a worker, in memory the host shares: the
 * worker writes it as the interpreter starts and stops, and the host's watchdog reads it while
 * the worker is busy (even inside one long built-in call, when the worker answers no message).
 * Times are microseconds on the run's CPU clock (see cpu-clock.ts: the thread's CPU time, or
 * wall time on {@link sharedNow}'s clock).
 */
export class RunMeter {
  readonly buffer: SharedArrayBuffer;
  readonly #cells: BigInt64Array;

  /** A new meter (the host's), or the worker's view of the host's `buffer`. */
  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(3 * BigInt64Array.BYTES_PER_ELEMENT);
    this.#cells = new BigInt64Array(this.buffer);
    if (buffer === undefined) Atomics.store(this.#cells, SLICE_START, IDLE);
  }

  sliceStarted(at: number): void {
    Atomics.store(this.#cells, SLICE_START, micros(at));
  }

  /** The slice is marked over before the total grows, so a reader in between never counts a slice twice. */
  sliceEnded(cpuUsedMs: number): void {
    Atomics.store(this.#cells, SLICE_START, IDLE);
    Atomics.store(this.#cells, CPU_USED, micros(cpuUsedMs));
  }

  logDropped(droppedLogLines: number): void {
    Atomics.store(this.#cells, DROPPED_LOG_LINES, BigInt(droppedLogLines));
  }

  /** CPU time used by `now` (ms), the running slice included; read total first, then slice (see sliceEnded). */
  cpuUsedMs(now: number): number {
    const used = Number(Atomics.load(this.#cells, CPU_USED)) / 1000;
    const sliceStart = Atomics.load(this.#cells, SLICE_START);
    return sliceStart === IDLE ? used : used + Math.max(0, now - Number(sliceStart) / 1000);
  }

  droppedLogLines(): number {
    return Number(Atomics.load(this.#cells, DROPPED_LOG_LINES));
  }
}

/** The meter as the run's observer in the worker, with log lines handed on to `logKept`. */
export function meterObserver(meter: RunMeter, logKept: (line: string) => void): RunObserver {
  return {
    sliceStarted: (at) => meter.sliceStarted(at),
    sliceEnded: (cpuUsedMs) => meter.sliceEnded(cpuUsedMs),
    logDropped: (count) => meter.logDropped(count),
    logKept,
  };
}

function micros(ms: number): bigint {
  return BigInt(Math.round(ms * 1000));
}
