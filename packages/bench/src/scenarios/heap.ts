import type { BenchContext } from "../context.js";
import { compared, single, type Figure, type TargetVerdict } from "../figures.js";
import { SIDES } from "../interleave.js";
import type { HeapJob, HeapResult } from "../workers/heap-worker.js";
import { runWorker } from "../workers/run-worker.js";

const ALLOWED_GROWTH = 0.1;

/** Heap after GC once warmed up and after many invokes, in a fresh --expose-gc process per side. */
export async function runHeapScenario(context: BenchContext): Promise<Figure[]> {
  const { settings } = context;
  const group = `${settings.heapInvokes.toLocaleString("en-US")} invokes in one process (in-memory server)`;
  const results: Partial<Record<(typeof SIDES)[number], HeapResult>> = {};
  for (const side of SIDES) {
    context.progress(`${group}: ${side}`);
    results[side] = await runWorker<HeapResult>(
      "heap-worker.ts",
      { side, warmupInvokes: settings.heapWarmupInvokes, invokes: settings.heapInvokes } satisfies HeapJob,
      { nodeArgs: ["--expose-gc"], timeoutMs: 600_000 },
    );
  }
  const adapter = results.adapter!;
  const raw = results.raw!;
  const growth = adapter.heapAfterInvokesMb / adapter.heapAfterWarmupMb - 1;
  const withinTenPercent = (): TargetVerdict => ({
    text: `within ${ALLOWED_GROWTH * 100}% of after warm-up`,
    pass: Math.abs(growth) <= ALLOWED_GROWTH,
  });
  return [
    single({
      id: "heap.after-warmup",
      group,
      label: `adapter heap after ${settings.heapWarmupInvokes} warm-up invokes + GC`,
      unit: "MB",
      value: adapter.heapAfterWarmupMb,
    }),
    single(
      {
        id: "heap.after-invokes",
        group,
        label: `adapter heap after all invokes + GC`,
        unit: "MB",
        value: adapter.heapAfterInvokesMb,
        note: `growth ${(growth * 100).toFixed(1)}%`,
      },
      withinTenPercent,
    ),
    compared({
      id: "heap.growth",
      group,
      label: "heap growth over the invokes",
      unit: "MB",
      adapter: adapter.heapAfterInvokesMb - adapter.heapAfterWarmupMb,
      raw: raw.heapAfterInvokesMb - raw.heapAfterWarmupMb,
      showRatio: false,
    }),
    compared({
      id: "heap.in-memory-throughput",
      group,
      label: "sequential in-memory invokes",
      unit: "calls/s",
      adapter: adapter.invokesPerSecond,
      raw: raw.invokesPerSecond,
    }),
  ];
}
