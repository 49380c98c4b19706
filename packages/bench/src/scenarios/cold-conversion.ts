import type { BenchContext } from "../context.js";
import { atMost, single, type Figure } from "../figures.js";
import { median } from "../stats.js";
import type { ConversionJob, ConversionResult } from "../workers/conversion-worker.js";
import { runWorker } from "../workers/run-worker.js";
import { CONVERSION_FORMATS } from "./model-tools-registry.js";

const GROUP = "conversions at scale (issue 36)";
const FIRST_CONVERSION_LIMIT_MS = 200;

/**
 * model-tools' first conversion of a large registry to each provider format, in a fresh process
 * per format and round (nothing of model-tools has run before): time, CPU, peak RSS, retained heap.
 */
export async function runColdConversionScenario(context: BenchContext): Promise<Figure[]> {
  const { settings } = context;
  const count = settings.modelToolsTools.toLocaleString("en-US");
  const results = new Map<string, ConversionResult[]>(CONVERSION_FORMATS.map((format) => [format.key, []]));
  for (let round = 0; round < settings.coldConversionRounds; round += 1) {
    for (const format of CONVERSION_FORMATS) {
      context.progress(`${GROUP}: ${format.label}, round ${round + 1} of ${settings.coldConversionRounds}`);
      const job: ConversionJob = { format: format.key, tools: settings.modelToolsTools };
      const result = await runWorker<ConversionResult>("conversion-worker.ts", job, { nodeArgs: ["--expose-gc"] });
      if (result.toolCount !== settings.modelToolsTools) {
        throw new Error(
          `${GROUP}: ${format.label} gave ${result.toolCount} tools, expected ${settings.modelToolsTools}`,
        );
      }
      results.get(format.key)!.push(result);
    }
  }
  return CONVERSION_FORMATS.flatMap((format) => {
    const rounds = results.get(format.key)!;
    const pick = (read: (result: ConversionResult) => number): number => median(rounds.map(read));
    return [
      single({
        id: `cold-conversion.${format.key}`,
        group: GROUP,
        label: `first conversion of ${count} tools to ${format.label} in a fresh process, median`,
        unit: "ms",
        value: pick((r) => r.wallMs),
        note: `${settings.coldConversionRounds} fresh process(es) per format, our packages from TypeScript source under tsx (not timed: the import)`,
      }),
      single(
        {
          id: `cold-conversion.${format.key}.cpu`,
          group: GROUP,
          label: "  the same, CPU time of the process",
          unit: "ms",
          value: pick((r) => r.cpuMs),
          note: "judged on CPU time: on a shared machine the wall time also counts waiting for a core",
        },
        atMost(FIRST_CONVERSION_LIMIT_MS, "ms"),
      ),
      single({
        id: `cold-conversion.${format.key}.peak-rss`,
        group: GROUP,
        label: "  peak RSS above the start of the conversion",
        unit: "MB",
        value: pick((r) => r.peakRssAboveStartMb),
        note: "VmHWM reset right before the conversion (Linux), less the RSS then",
      }),
      single({
        id: `cold-conversion.${format.key}.retained-heap`,
        group: GROUP,
        label: "  live heap the result and caches keep",
        unit: "MB",
        value: pick((r) => r.retainedHeapMb),
      }),
    ];
  });
}
