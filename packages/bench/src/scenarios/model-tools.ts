import {
  createModelToolSet,
  handleToolCall,
  toModelText,
  toOpenAITools,
  type ModelToolSet,
} from "@mcp-tool-adapter/model-tools";
import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import type { BenchContext } from "../context.js";
import { atMost, single, type Figure } from "../figures.js";
import { TYPICAL_ARGUMENTS } from "../servers/generated-tools.js";
import { CONVERSION_FORMATS, filledRegistry, NAMESPACE } from "./model-tools-registry.js";
import { median, medianPairedDifference } from "../stats.js";

const GROUP = "model tools (issue 16)";
const OVERHEAD_LIMIT_US = 5;
const CONVERT_LIMIT_MS = 50;
/** Tools the call figures spread their calls over (each has its own compiled schema). */
const CALLED_TOOLS = 16;

/** The typical arguments as a strict model sends them: an optional property it leaves out comes as null. */
const NULL_FILLED_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({ ...TYPICAL_ARGUMENTS, verbose: null });

/** The bridges' cost on top of `invoke`, and converting a large registry to each provider's tool format. */
export async function runModelToolsScenario(context: BenchContext): Promise<Figure[]> {
  context.progress(
    `${GROUP}: per-call overhead, converting ${context.settings.modelToolsTools.toLocaleString("en-US")} tools`,
  );
  const registry = filledRegistry(context.settings.modelToolsTools);
  return [
    ...(await measureCallOverhead(context, registry)),
    ...measureConversion(context),
    ...measureDeferredWork(context),
  ];
}

/**
 * µs per call of three paths over the same registry tools, batches alternating so drift hits all
 * alike: `registry.call` (the invoke the bridges sit on), the bridges' path (look the model's name
 * up, restore the arguments, call, turn the result into text) and `handleToolCall`
 * (the same plus parsing the provider's JSON arguments and shaping a Chat tool message).
 * The overheads are medians of the per-batch differences.
 */
async function measureCallOverhead({ settings }: BenchContext, registry: ToolRegistry): Promise<Figure[]> {
  const set: ModelToolSet = createModelToolSet(registry);
  const called = set.tools.slice(0, CALLED_TOOLS);
  const args = { ...TYPICAL_ARGUMENTS };
  const argsJson = JSON.stringify(args);
  let checked = 0;
  const invoke = async (index: number): Promise<void> => {
    const result = await registry.call(called[index % CALLED_TOOLS]!.registryName, args);
    if (result.success) checked += 1;
  };
  const bridge = async (index: number): Promise<void> => {
    // A fresh string, as a name parsed from a model's answer would be.
    const tool = set.get(`${NAMESPACE}__${called[index % CALLED_TOOLS]!.registered.localName}`);
    const text = toModelText(await tool!.execute(args));
    if (text.length > 0) checked += 1;
  };
  const handle = async (index: number): Promise<void> => {
    const message = await handleToolCall(
      set,
      { id: "call_1", name: called[index % CALLED_TOOLS]!.modelName, arguments: argsJson },
      { format: "openai-chat" },
    );
    if (!message.content.startsWith("Error")) checked += 1;
  };
  const paths = [invoke, bridge, handle];
  const batch = async (path: (index: number) => Promise<void>): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < settings.modelToolsCallBatchSize; i += 1) await path(i);
    return ((performance.now() - started) * 1000) / settings.modelToolsCallBatchSize;
  };
  const warmupBatches = 20;
  for (let i = 0; i < warmupBatches; i += 1) for (const path of paths) await batch(path);
  const perCallUs: number[][] = paths.map(() => []);
  for (let round = 0; round < settings.modelToolsCallBatches; round += 1) {
    // Rotate the order so no path always runs first (or right after the same other path).
    for (let k = 0; k < paths.length; k += 1) {
      const index = (round + k) % paths.length;
      perCallUs[index]!.push(await batch(paths[index]!));
    }
  }
  if (checked !== paths.length * settings.modelToolsCallBatchSize * (warmupBatches + settings.modelToolsCallBatches)) {
    throw new Error("model-tools bench: a call failed; the typical arguments must fit the generated schemas");
  }
  const [invokeUs, bridgeUs, handleUs] = perCallUs as [number[], number[], number[]];
  const note = `${settings.modelToolsCallBatches} batches of ${settings.modelToolsCallBatchSize} sequential calls per path, a text result`;
  return [
    single({
      id: "model-tools.call.invoke",
      group: GROUP,
      label: "registry call (invoke, validating like the adapter), median",
      unit: "µs",
      value: median(invokeUs),
      note,
    }),
    single({
      id: "model-tools.call.bridge",
      group: GROUP,
      label: "bridge path: name lookup + restore + invoke + toModelText, median",
      unit: "µs",
      value: median(bridgeUs),
    }),
    single(
      {
        id: "model-tools.call.overhead",
        group: GROUP,
        label: "  bridge cost on top of invoke, median",
        unit: "µs",
        value: medianPairedDifference(bridgeUs, invokeUs),
        note: "median of the per-batch differences; the arguments are validated once, inside invoke, as for MCP tools",
      },
      atMost(OVERHEAD_LIMIT_US, "µs"),
    ),
    single(
      {
        id: "model-tools.call.handle-overhead",
        group: GROUP,
        label: "  handleToolCall (JSON arguments -> Chat tool message) on top of invoke, median",
        unit: "µs",
        value: medianPairedDifference(handleUs, invokeUs),
        note: "the bridge path plus JSON.parse of the arguments and the provider shape",
      },
      atMost(OVERHEAD_LIMIT_US, "µs"),
    ),
  ];
}

/**
 * ms to turn the whole registry into each provider's tool list, names included. "First" is a
 * registry the package has not seen (a fresh one per round and format); "again" converts the
 * same registry once more, as an agent that converts per step does: the frozen schemas'
 * conversions are reused, the names are mapped afresh.
 *
 * The heap is settled first, as in a host, where the registry is built at discovery, long before
 * a model step converts it: two young-generation collections move the new registry into the old
 * generation, as the host's own allocations would by then. The conversion's own collector work
 * is still charged to it: the timed part ends with a young-generation collection while its
 * result is alive (copying what it keeps, the work its allocations cause; garbage costs a
 * scavenge nothing), besides any collection its allocations start on their way. The unsettled
 * figure (a registry built right before, whose young objects the conversion's scavenges copy)
 * is shown too, untargeted: it measures the registry's build as much as the conversion.
 */
function measureConversion({ settings }: BenchContext): Figure[] {
  const collectYoung = youngGenerationCollector();
  const formats = CONVERSION_FORMATS;
  const timed = (
    format: (typeof formats)[number],
    registry: ToolRegistry,
    settled: boolean,
  ): { wallMs: number; cpuMs: number } => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const tools = format.convert(registry);
    if (settled) collectYoung();
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    if (tools.length !== settings.modelToolsTools)
      throw new Error(
        `model-tools bench: ${format.label} gave ${tools.length} tools, expected ${settings.modelToolsTools}`,
      );
    return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  // Two scavenges: the first copies what is alive within the young generation, the second promotes it.
  const settle = (): void => {
    collectYoung();
    collectYoung();
  };
  const settledRegistry = (): ToolRegistry => {
    const registry = filledRegistry(settings.modelToolsTools);
    settle();
    return registry;
  };
  const first = formats.map(() => ({ wallMs: [] as number[], cpuMs: [] as number[] }));
  const again = formats.map(() => [] as number[]);
  const unsettled = formats.map(() => ({ wallMs: [] as number[], cpuMs: [] as number[] }));
  // Round 0 warms the code paths up; it is not counted. Settled and unsettled alternate which goes first.
  for (let round = 0; round < settings.modelToolsConvertRounds + 1; round += 1) {
    formats.forEach((format, index) => {
      const runSettled = (): void => {
        const registry = settledRegistry();
        const cold = timed(format, registry, true);
        // The next agent step comes later too: what the first conversion keeps is old by then.
        settle();
        const warm = timed(format, registry, true);
        if (round === 0) return;
        first[index]!.wallMs.push(cold.wallMs);
        first[index]!.cpuMs.push(cold.cpuMs);
        again[index]!.push(warm.wallMs);
      };
      const runUnsettled = (): void => {
        const cold = timed(format, filledRegistry(settings.modelToolsTools), false);
        if (round === 0) return;
        unsettled[index]!.wallMs.push(cold.wallMs);
        unsettled[index]!.cpuMs.push(cold.cpuMs);
      };
      if (round % 2 === 0) {
        runSettled();
        runUnsettled();
      } else {
        runUnsettled();
        runSettled();
      }
    });
  }
  const count = settings.modelToolsTools.toLocaleString("en-US");
  return formats.flatMap((format, index) => [
    single(
      {
        id: `model-tools.convert.${format.key}`,
        group: GROUP,
        label: `convert ${count} tools to ${format.label}, first time, median`,
        unit: "ms",
        value: median(first[index]!.wallMs),
        note: `${settings.modelToolsConvertRounds} rounds, a registry the package has not seen each time, built and settled in the old generation before; names mapped, every schema converted, then a young-generation collection with the result alive`,
      },
      atMost(CONVERT_LIMIT_MS, "ms"),
    ),
    single({
      id: `model-tools.convert.${format.key}.cpu`,
      group: GROUP,
      label: "  the same, CPU time of this process",
      unit: "ms",
      value: median(first[index]!.cpuMs),
    }),
    single(
      {
        id: `model-tools.convert.${format.key}.again`,
        group: GROUP,
        label: "  the same registry converted again (per agent step), median",
        unit: "ms",
        value: median(again[index]!),
        note: "conversions of the registry's frozen schemas are reused (settled like the registry); names are mapped afresh; ends with a young-generation collection too",
      },
      atMost(CONVERT_LIMIT_MS, "ms"),
    ),
    single({
      id: `model-tools.convert.${format.key}.unsettled`,
      group: GROUP,
      label: "  first time, a registry built right before (not settled), median",
      unit: "ms",
      value: median(unsettled[index]!.wallMs),
      note: `CPU time ${median(unsettled[index]!.cpuMs).toFixed(1)} ms; the registry's own young objects are copied by the conversion's scavenges, so this measures the build as much as the conversion`,
    }),
  ]);
}

/**
 * A synchronous young-generation collection (a scavenge), from the `gc` function that
 * `node --expose-gc` provides (`pnpm bench` starts node with it).
 */
function youngGenerationCollector(): () => void {
  const gc = (globalThis as { gc?: (options: { type: "minor" | "major"; execution: "sync" }) => void }).gc;
  if (typeof gc !== "function")
    throw new Error("model-tools bench: the conversion figures need node --expose-gc (pnpm bench passes it)");
  return () => gc({ type: "minor", execution: "sync" });
}

/**
 * What a conversion leaves for later, paid by whoever needs it, so the conversion figures above
 * hide nothing: each tool's restore shape (built on its first call, or first restore), the set's
 * lookup by model name (built on the first lookup), and the report of what a conversion changed
 * (worked out when `changes` is first read). ms for the whole registry, after a first conversion
 * of a registry the package has not seen; round 0 warms up and is not counted.
 */
function measureDeferredWork({ settings }: BenchContext): Figure[] {
  const firstCalls: number[] = [];
  const againCalls: number[] = [];
  const changes: number[] = [];
  for (let round = 0; round < settings.modelToolsConvertRounds + 1; round += 1) {
    const registry = filledRegistry(settings.modelToolsTools);
    const set = createModelToolSet(registry);
    toOpenAITools(set);
    const names = set.tools.map((tool) => tool.modelName);
    // The steps of a call that find something not yet built the first time: the lookup, the restore.
    const lookUpAndRestore = (): number => {
      const started = performance.now();
      let restored = 0;
      for (const name of names) {
        const tool = set.get(name);
        if (tool?.schemaFor("openai-strict").restoreArguments(NULL_FILLED_ARGUMENTS).verbose !== null) restored += 1;
      }
      if (restored !== names.length) throw new Error("model-tools bench: a restore did not drop a null");
      return performance.now() - started;
    };
    const firstMs = lookUpAndRestore();
    const againMs = lookUpAndRestore();
    const started = performance.now();
    let changed = 0;
    for (const tool of set.tools) changed += tool.schemaFor("openai-strict").changes.length;
    const changesMs = performance.now() - started;
    if (changed === 0) throw new Error("model-tools bench: no conversion reported a change");
    if (round === 0) continue;
    firstCalls.push(firstMs);
    againCalls.push(againMs);
    changes.push(changesMs);
  }
  const count = settings.modelToolsTools.toLocaleString("en-US");
  const note = `${settings.modelToolsConvertRounds} rounds, after the first conversion (OpenAI strict) of a registry the package has not seen`;
  return [
    single({
      id: "model-tools.deferred.first-calls",
      group: GROUP,
      label: `look up and restore arguments for each of ${count} tools, first time (builds the lookup map, restore shapes), median`,
      unit: "ms",
      value: median(firstCalls),
      note: `${note}; arguments with a null to drop`,
    }),
    single({
      id: "model-tools.deferred.first-calls.again",
      group: GROUP,
      label: "  the same again (everything built), median",
      unit: "ms",
      value: median(againCalls),
    }),
    single({
      id: "model-tools.deferred.changes",
      group: GROUP,
      label: `read every tool's conversion report (\`changes\`, worked out on first read), total, median`,
      unit: "ms",
      value: median(changes),
      note,
    }),
  ];
}
