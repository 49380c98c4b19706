import type { BenchContext } from "../context.js";
import { atMost, compared, ratioAtMost, type Figure } from "../figures.js";
import { alternate, perSide } from "../interleave.js";
import { median } from "../stats.js";
import type { ManyToolsJob, ManyToolsResult } from "../workers/many-tools-worker.js";
import { runWorker } from "../workers/run-worker.js";
import { typeScriptNodeArgs, workerPath } from "../workers/spawn-worker.js";

const PEAK_RSS_LIMIT_MB = 200;

/**
 * The generated server with many tools in pages: adapter discover + register against the raw
 * SDK's paginated listing, each round a fresh child process per side (time and peak RSS).
 */
export async function runManyToolsScenario(context: BenchContext): Promise<Figure[]> {
  const { settings } = context;
  const group = `generated server: ${settings.manyTools} tools in pages of ${settings.manyToolsPageSize} (stdio)`;
  const server = {
    command: process.execPath,
    args: [
      ...typeScriptNodeArgs(),
      workerPath("../servers/generated-tools-server.ts"),
      `--tools=${settings.manyTools}`,
      `--page-size=${settings.manyToolsPageSize}`,
    ],
  };
  const results = perSide<ManyToolsResult[]>(() => []);
  await alternate(settings.manyToolsRounds, async (side, round) => {
    context.progress(`${group}: ${side}, round ${round + 1} of ${settings.manyToolsRounds}`);
    const result = await runWorker<ManyToolsResult>("many-tools-worker.ts", { side, ...server } satisfies ManyToolsJob);
    if (result.toolCount !== settings.manyTools) {
      throw new Error(`${group}: the ${side} side got ${result.toolCount} tools, expected ${settings.manyTools}`);
    }
    results[side].push(result);
  });
  const pick = (field: "ms" | "cpuMs" | "againCpuMs" | "peakRssMb" | "baselineRssMb") => ({
    adapter: median(results.adapter.map((r) => r[field])),
    raw: median(results.raw.map((r) => r[field])),
  });
  const ms = pick("ms");
  const cpuMs = pick("cpuMs");
  const peak = pick("peakRssMb");
  const baseline = pick("baselineRssMb");
  return [
    compared(
      {
        id: "many-tools.discover-register.median",
        group,
        label: "discover + register (raw: list pages), median",
        unit: "ms",
        ...ms,
        note: `${settings.manyToolsRounds} child processes per side`,
      },
      ratioAtMost(1.5),
    ),
    compared({
      id: "many-tools.discover-register.cpu",
      group,
      label: "discover + register, client CPU, median",
      unit: "ms",
      ...cpuMs,
      note: "user + system CPU of the client process in that stretch: its own work, without waiting for the server or a core",
    }),
    compared(
      {
        id: "many-tools.discover-again.cpu",
        group,
        label: "discover again, nothing changed (raw: list pages again), client CPU",
        unit: "ms",
        ...pick("againCpuMs"),
        note: "median of 7 listings after the first in each process, then of the processes: what a tools/list_changed or a reconnect costs; the bound catches copying every unchanged tool again (about 4x)",
      },
      ratioAtMost(2),
    ),
    {
      ...compared({
        id: "many-tools.peak-rss",
        group,
        label: "peak RSS of the client process, median",
        unit: "MB",
        ...peak,
        note: "VmHWM of a process that only runs this side",
      }),
      target: atMost(PEAK_RSS_LIMIT_MB, "MB")(peak.adapter),
    },
    compared({
      id: "many-tools.baseline-rss",
      group,
      label: "RSS with modules loaded, before connect",
      unit: "MB",
      ...baseline,
      note: "both sides run under tsx; the adapter side loads its whole module graph from TypeScript source",
    }),
    compared({
      id: "many-tools.rss-growth",
      group,
      label: "peak RSS above that baseline",
      unit: "MB",
      adapter: median(results.adapter.map((r) => r.peakRssMb - r.baselineRssMb)),
      raw: median(results.raw.map((r) => r.peakRssMb - r.baselineRssMb)),
    }),
  ];
}
