import { ToolRegistry, type ToolDefinition } from "@mcp-tool-adapter/registry";
import { createSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import type { BenchContext } from "../context.js";
import { atMost, single, type Figure, type TargetVerdict } from "../figures.js";
import { generatedInputSchema, TYPICAL_ARGUMENTS } from "../servers/generated-tools.js";
import { median } from "../stats.js";

const GROUP = "leaf packages (issue 2)";
const VALIDATE_LIMIT_US = 2;
const COMPILE_LIMIT_MS = 2_000;
const LOOKUP_RATIO_LIMIT = 1.5;
const MAP_RATIO_SLACK = 1.1;
const LOOKUP_NAME_POOL = 4_096;

/** Validation, schema compilation and registry lookup, each a leaf package on its own. */
export function runLeafScenario(context: BenchContext): Figure[] {
  context.progress(`${GROUP}: validate, compile, registry lookup`);
  return [...measureValidation(context), ...measureCompilation(context), ...measureRegistryLookup(context)];
}

/** Per-call time of validating the typical five-property object with an already compiled schema. */
function measureValidation({ settings }: BenchContext): Figure[] {
  const compiled = createSchemaValidator().compile(generatedInputSchema(0));
  const value = { ...TYPICAL_ARGUMENTS };
  if (!compiled.validate(value).valid)
    throw new Error("leaf bench: the typical arguments do not fit the typical schema; fix generated-tools.ts");
  let valid = 0;
  for (let i = 0; i < settings.validationBatchSize * 10; i += 1) valid += compiled.validate(value).valid ? 1 : 0;
  const perCallUs: number[] = [];
  for (let batch = 0; batch < settings.validationBatches; batch += 1) {
    const started = performance.now();
    for (let i = 0; i < settings.validationBatchSize; i += 1) valid += compiled.validate(value).valid ? 1 : 0;
    perCallUs.push(((performance.now() - started) * 1000) / settings.validationBatchSize);
  }
  if (valid !== settings.validationBatchSize * (10 + settings.validationBatches))
    throw new Error("leaf bench: a validation of the typical object failed");
  return [
    single(
      {
        id: "leaf.validate.median",
        group: GROUP,
        label: "validate a five-property object (compiled), median",
        unit: "µs",
        value: median(perCallUs),
        note: `median of ${settings.validationBatches} batch means, ${settings.validationBatchSize} calls each`,
      },
      atMost(VALIDATE_LIMIT_US, "µs"),
    ),
  ];
}

/** Compiling many distinct tool schemas with a fresh validator, as discovery of a big server would. */
function measureCompilation({ settings }: BenchContext): Figure[] {
  const roundsMs: number[] = [];
  const roundsCpuMs: number[] = [];
  for (let round = 0; round < settings.compileRounds; round += 1) {
    // Offsets keep every round's schemas new to any cache below the validator.
    const schemas = Array.from({ length: settings.compileSchemas }, (_, i) =>
      generatedInputSchema(round * settings.compileSchemas + i),
    );
    const validator = createSchemaValidator({ maxCacheEntries: settings.compileSchemas });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const schema of schemas) validator.compile(schema);
    const cpu = process.cpuUsage(cpuBefore);
    roundsMs.push(performance.now() - started);
    roundsCpuMs.push((cpu.user + cpu.system) / 1000);
    if (validator.cacheSize !== settings.compileSchemas)
      throw new Error(
        `leaf bench: expected ${settings.compileSchemas} distinct compiled schemas, the cache holds ${validator.cacheSize}`,
      );
  }
  return [
    single(
      {
        id: "leaf.compile.median",
        group: GROUP,
        label: `compile ${settings.compileSchemas.toLocaleString("en-US")} distinct tool schemas, median`,
        unit: "ms",
        value: median(roundsMs),
        note: `${settings.compileRounds} rounds, fresh validator each`,
      },
      atMost(COMPILE_LIMIT_MS, "ms"),
    ),
    single({
      id: "leaf.compile.cpu",
      group: GROUP,
      label: "  the same, CPU time of this process",
      unit: "ms",
      value: median(roundsCpuMs),
      note: "close to the wall time on an idle machine; much lower than it when other processes hold the cores",
    }),
  ];
}

function filledRegistry(size: number): ToolRegistry {
  const registry = new ToolRegistry();
  const definitions: ToolDefinition[] = Array.from({ length: size }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool ${i}`,
    inputSchema: { type: "object" },
    capabilities: { readOnly: true, writes: false },
    source: "bench",
    sourceMetadata: {},
    checkpointable: false,
    handler: () => ({ success: true }),
  }));
  registry.replaceNamespace("bench", definitions);
  return registry;
}

/**
 * `count` lookup names spread pseudo-randomly over a table of `size` tools. Each is a fresh
 * string, as a name parsed from a model's tool call would be (no identity shortcut).
 */
function lookupNames(size: number, distinct: number): string[] {
  const picks = Array.from({ length: distinct }, (_, i) => (i * 2_654_435_761) % size);
  return Array.from({ length: LOOKUP_NAME_POOL }, (_, i) => ["bench", `tool_${picks[i % distinct]!}`].join("/"));
}

/**
 * ns per `get` at a small and a large registry, batches alternating so drift hits both alike.
 * The constant-time check looks up the same number of distinct tools in both tables, so it
 * measures the table size alone; looking up names spread over all of a large table also
 * measures CPU cache misses (how many distinct tools are used), reported without a target.
 */
function measureRegistryLookup({ settings }: BenchContext): Figure[] {
  const small = filledRegistry(settings.registrySmall);
  const large = filledRegistry(settings.registryLarge);
  // The same lookups in plain Maps of the same sizes: what the hardware does to any hash table.
  const plainMap = (size: number): Map<string, object> =>
    new Map(Array.from({ length: size }, (_, i) => [`bench/tool_${i}`, { i }]));
  const cases: { registry: { get(name: string): unknown }; names: string[] }[] = [
    { registry: small, names: lookupNames(settings.registrySmall, settings.registrySmall) },
    { registry: large, names: lookupNames(settings.registryLarge, settings.registrySmall) },
    { registry: large, names: lookupNames(settings.registryLarge, Math.min(settings.registryLarge, LOOKUP_NAME_POOL)) },
    { registry: plainMap(settings.registrySmall), names: lookupNames(settings.registrySmall, settings.registrySmall) },
    { registry: plainMap(settings.registryLarge), names: lookupNames(settings.registryLarge, settings.registrySmall) },
  ];
  const nsPerLookup: number[][] = cases.map(() => []);
  let found = 0;
  const batch = (index: number): number => {
    const { registry, names } = cases[index]!;
    const started = performance.now();
    for (let i = 0; i < settings.registryLookupBatchSize; i += 1) {
      if (registry.get(names[i % LOOKUP_NAME_POOL]!) !== undefined) found += 1;
    }
    return ((performance.now() - started) * 1e6) / settings.registryLookupBatchSize;
  };
  const warmupBatches = 20;
  for (let i = 0; i < warmupBatches; i += 1) cases.forEach((_, index) => batch(index));
  for (let i = 0; i < settings.registryLookupBatches; i += 1)
    cases.forEach((_, index) => nsPerLookup[index]!.push(batch(index)));
  if (found !== settings.registryLookupBatchSize * cases.length * (warmupBatches + settings.registryLookupBatches)) {
    throw new Error("leaf bench: a registry lookup missed a registered tool");
  }
  const [smallNs, largeNs, spreadNs, mapSmallNs, mapLargeNs] = nsPerLookup.map(median) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const ratio = largeNs / smallNs;
  const mapRatio = mapLargeNs / mapSmallNs;
  // A hash table's lookups slow down a little as it outgrows the CPU caches; the registry is
  // constant-time when it is near 1 or no worse than a bare Map doing the same lookups.
  const constantTime = (): TargetVerdict => ({
    text: `≤ ${LOOKUP_RATIO_LIMIT}, or ≤ ${MAP_RATIO_SLACK} × plain Map's`,
    pass: ratio <= LOOKUP_RATIO_LIMIT || ratio <= mapRatio * MAP_RATIO_SLACK,
  });
  const largeLabel = settings.registryLarge.toLocaleString("en-US");
  return [
    single({
      id: "leaf.registry-get.small",
      group: GROUP,
      label: `registry get at ${settings.registrySmall} tools, median`,
      unit: "ns",
      value: smallNs,
    }),
    single({
      id: "leaf.registry-get.large",
      group: GROUP,
      label: `registry get at ${largeLabel} tools, median`,
      unit: "ns",
      value: largeNs,
      note: `the same ${settings.registrySmall} distinct names looked up as in the small table`,
    }),
    {
      ...single({
        id: "leaf.registry-get.ratio",
        group: GROUP,
        label: `registry get time ${largeLabel} / ${settings.registrySmall} tools`,
        unit: "×",
        value: ratio,
      }),
      target: constantTime(),
    },
    single({
      id: "leaf.registry-get.large-spread",
      group: GROUP,
      label: `registry get at ${largeLabel} tools, names spread over all, median`,
      unit: "ns",
      value: spreadNs,
      note: `${Math.min(settings.registryLarge, LOOKUP_NAME_POOL)} distinct names: CPU cache misses, not table size`,
    }),
    single({
      id: "leaf.registry-get.plain-map-ratio",
      group: GROUP,
      label: `plain Map get time ${largeLabel} / ${settings.registrySmall} entries (reference)`,
      unit: "×",
      value: mapRatio,
      note: `the same lookups in a bare Map: ${mapSmallNs.toFixed(1)} ns vs ${mapLargeNs.toFixed(1)} ns; the part of the registry ratio no hash table avoids`,
    }),
  ];
}
