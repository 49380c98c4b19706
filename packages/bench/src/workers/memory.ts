import { readFileSync, writeFileSync } from "node:fs";

const BYTES_PER_MB = 1024 * 1024;

/** A `/proc/self/status` field in MB (VmRSS now, VmHWM peak), or undefined off Linux. */
function statusMb(field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"));
    return match === null ? undefined : (Number(match[1]) * 1024) / BYTES_PER_MB;
  } catch {
    return undefined;
  }
}

/** Peak resident set size of this process so far, in MB. */
export function peakRssMb(): number {
  return statusMb("VmHWM") ?? (process.resourceUsage().maxRSS * 1024) / BYTES_PER_MB;
}

/**
 * Resets this process's peak RSS (VmHWM) to its current RSS, so a later peakRssMb() shows the
 * peak of what ran in between (Linux >= 4.0: writing 5 to /proc/self/clear_refs). False where
 * that is not possible; the peak then covers the whole process life.
 */
export function resetPeakRss(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

export function currentRssMb(): number {
  return statusMb("VmRSS") ?? process.memoryUsage().rss / BYTES_PER_MB;
}

/** Heap in use after full collections (needs node --expose-gc), in MB. */
export async function heapAfterGcMb(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("heap figures need a full GC: run the worker with node --expose-gc");
  // Let timers and microtasks of the last calls settle, then collect until the heap stops shrinking.
  for (let i = 0; i < 3; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed / BYTES_PER_MB;
}
