/**
 * The first conversion of a large registry to one provider format in a fresh process (issue 36):
 * nothing of model-tools has run before, so the time includes its code's first run, as in an
 * agent's first model step. The peak RSS is how far the resident memory rose above where it
 * stood (after full GCs, registry built) when the conversion began; the retained heap is what
 * the result and the caches keep, after full GCs with the result alive.
 */
import { CONVERSION_FORMATS, type ConversionFormat } from "../scenarios/model-tools-registry.js";
import { filledRegistry } from "../scenarios/model-tools-registry.js";
import { currentRssMb, heapAfterGcMb, peakRssMb, resetPeakRss } from "./memory.js";
import type { RunCommand } from "./run-worker.js";
import { serveIpcCommands } from "./serve-ipc-commands.js";
import { workerInput } from "./worker-io.js";

export interface ConversionJob {
  readonly format: ConversionFormat["key"];
  readonly tools: number;
}

export interface ConversionResult {
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Peak RSS above the RSS at the start of the conversion (NaN where the peak cannot be reset). */
  readonly peakRssAboveStartMb: number;
  /** Live heap after full GCs with the result alive, less the heap before the conversion. */
  readonly retainedHeapMb: number;
  readonly toolCount: number;
}

async function measure(job: ConversionJob): Promise<ConversionResult> {
  const format = CONVERSION_FORMATS.find((candidate) => candidate.key === job.format);
  if (format === undefined) throw new Error(`conversion worker: unknown format "${job.format}"`);
  const registry = filledRegistry(job.tools);
  const heapBefore = await heapAfterGcMb();
  const peakReset = resetPeakRss();
  const rssBefore = currentRssMb();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const tools = format.convert(registry);
  const wallMs = performance.now() - started;
  const spent = process.cpuUsage(cpu);
  const peakRssAboveStartMb = peakReset ? peakRssMb() - rssBefore : Number.NaN;
  const retainedHeapMb = (await heapAfterGcMb()) - heapBefore;
  return {
    wallMs,
    cpuMs: (spent.user + spent.system) / 1000,
    peakRssAboveStartMb,
    retainedHeapMb,
    toolCount: tools.length,
  };
}

const job = workerInput() as ConversionJob;
serveIpcCommands<RunCommand<ConversionResult>>({ run: () => measure(job) });
