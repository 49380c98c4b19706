import type { TargetVerdict } from "../figures.js";

/** The largest growth over the second run of the same calls, as a share of the heap after warm-up. */
export const HEAP_REPEAT_SHARE = 0.1;

/**
 * The leak check on a side's heap: the growth over a second run of the same calls (MB, after full
 * GCs) at most a tenth of the heap after warm-up. The first run's growth is shown, not judged: over
 * HTTP most of it was V8 optimizing the call path (code and bytecode spaces) and the connections
 * opened for 50 calls in flight, paid once; on the second run a heap stays flat unless something
 * leaks. A heap that shrinks passes: V8 flushes the bytecode of functions unused since start-up
 * (import, connect) after a few full GCs, which over HTTP at the default counts freed some 1.2 MB
 * of ours during the second run (docs/performance-history.md, session 27).
 */
export function heapRepeatVerdict(growthMb: number, heapAfterWarmUpMb: number): TargetVerdict {
  return {
    text: `at most ${HEAP_REPEAT_SHARE * 100}% of the heap after warm-up`,
    pass: growthMb <= HEAP_REPEAT_SHARE * heapAfterWarmUpMb,
  };
}
