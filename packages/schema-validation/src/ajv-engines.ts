import type { Ajv, AnySchema, Options, ValidateFunction } from "ajv";
import type { Ajv2019 } from "ajv/dist/2019.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { loadAjv, loadAjv2019, loadAjv2020, loadAjvFormats } from "#engine-modules";
import type { Engine } from "./dialects.js";
import { DRAFT_06_META_SCHEMA } from "./draft-06-meta-schema.js";
import { linearRegExpEngine } from "./linear-regexp.js";
import type { Logger } from "./types.js";

type AjvInstance = Ajv | Ajv2019 | Ajv2020;

interface SharedEngine {
  ajv: AjvInstance;
  /** ajv's reference table right after start-up; anything added later belongs to one compile and is removed. */
  baselineRefs: ReadonlySet<string>;
  /** How many values of each kind ajv's code scope held right after start-up (see `trimValueScope`). */
  baselineScope: ReadonlyMap<string, number>;
}

/**
 * The parts of ajv's value scope (`ajv.scope`) that grow with every compile: the values generated
 * code refers to (each compiled schema and validate function among them), by kind, and the names
 * given to them. Not public API, so it is used only when it has exactly this shape.
 */
interface AjvValueScope {
  get(): Record<string, unknown[] | undefined>;
  _values: Record<string, Map<unknown, unknown> | undefined>;
}

function valueScopeOf(ajv: AjvInstance): AjvValueScope | undefined {
  const scope = ajv.scope as unknown as { get?: unknown; _values?: unknown };
  if (typeof scope.get !== "function" || typeof scope._values !== "object" || scope._values === null) return undefined;
  const store: unknown = (scope as AjvValueScope).get();
  if (typeof store !== "object" || store === null) return undefined;
  return scope as AjvValueScope;
}

function scopeSizes(ajv: AjvInstance): Map<string, number> {
  const sizes = new Map<string, number>();
  const store = valueScopeOf(ajv)?.get() ?? {};
  for (const [kind, values] of Object.entries(store)) sizes.set(kind, values?.length ?? 0);
  return sizes;
}

/**
 * ajv keeps every value a compile put into its shared code scope (the schema object, the validate
 * function, ...) for the life of the instance, so a long-lived shared instance grows by about 9 KB
 * per compiled schema whatever our cache evicts, and the garbage collector walks all of it.
 * Generated code copies what it needs from the scope into its own closure when it is created
 * (`const schema31 = scope.schema[31]`), so once a compile returns, the values it added can go.
 */
function trimValueScope(ajv: AjvInstance, baseline: ReadonlyMap<string, number>): void {
  const scope = valueScopeOf(ajv);
  if (scope === undefined) return;
  const store = scope.get();
  for (const [kind, names] of Object.entries(scope._values)) {
    const values = store[kind];
    const keep = baseline.get(kind) ?? 0;
    if (names === undefined || values === undefined || values.length <= keep || names.size !== values.length) continue;
    let index = 0;
    for (const key of names.keys()) {
      if (index >= keep) names.delete(key);
      index += 1;
    }
    values.length = keep;
  }
}

// ajv instances are costly to build, so one per engine is shared by every validator. Compiling is
// synchronous, so the logger of the compile in progress can be routed through this variable.
let activeLogger: Logger | undefined;
const engines = new Map<Engine, SharedEngine>();

const AJV_OPTIONS: Options = {
  // Report every problem at once, not just the first.
  allErrors: true,
  // Real servers ship unknown keywords and loose schemas; they must still compile.
  strict: false,
  validateFormats: true,
  // ajv's code optimizer makes compiling about a third slower and validating no faster for tool-sized schemas.
  // Patterns come from the server: a backtracking engine would let one stall the host (see linear-regexp.ts).
  code: { optimize: false, regExp: linearRegExpEngine },
  logger: {
    log: () => undefined,
    warn: (...args: unknown[]) => activeLogger?.warn?.(`ajv: ${args.map(String).join(" ")}`),
    error: (...args: unknown[]) => activeLogger?.error?.(`ajv: ${args.map(String).join(" ")}`),
  },
};

function createAjv(engine: Engine): AjvInstance {
  switch (engine) {
    case "draft-07": {
      const ajv = new (loadAjv())(AJV_OPTIONS);
      ajv.addMetaSchema(DRAFT_06_META_SCHEMA);
      return ajv;
    }
    case "2019-09":
      return new (loadAjv2019())(AJV_OPTIONS);
    case "2020-12":
      return new (loadAjv2020())(AJV_OPTIONS);
  }
}

function sharedEngine(engine: Engine): SharedEngine {
  let shared = engines.get(engine);
  if (shared === undefined) {
    const ajv = createAjv(engine);
    loadAjvFormats()(ajv);
    // Compiling once makes ajv build its meta-schema validators now, so the baseline below is complete.
    const warmUp = {};
    ajv.compile(warmUp);
    ajv.removeSchema(warmUp);
    // ajv files a schema without $id under "" (and needs that to resolve "#"); it is not part of the baseline.
    Reflect.deleteProperty(ajv.refs, "");
    shared = { ajv, baselineRefs: new Set(Object.keys(ajv.refs)), baselineScope: scopeSizes(ajv) };
    engines.set(engine, shared);
  }
  return shared;
}

/** True when `id` names one of the engine's meta-schemas, which a user schema must not replace. */
export function isReservedSchemaId(engine: Engine, id: string): boolean {
  const { ajv, baselineRefs } = sharedEngine(engine);
  // The same normalization ajv applies to ids before storing them.
  const normalized = id.replace(/#\/?$/, "");
  return baselineRefs.has(normalized) || ajv.schemas[normalized] !== undefined;
}

/**
 * Compiles with the shared ajv of `engine`, then removes every trace of the schema from ajv:
 * only our bounded cache holds compiled schemas, and each schema stands alone (none can $ref
 * another by its $id, and two tools may use the same $id). Throws what ajv throws.
 */
export function compileWithAjv(engine: Engine, schema: AnySchema, logger: Logger | undefined): ValidateFunction {
  const { ajv, baselineRefs, baselineScope } = sharedEngine(engine);
  activeLogger = logger;
  try {
    return ajv.compile(schema);
  } finally {
    activeLogger = undefined;
    if (typeof schema === "object") ajv.removeSchema(schema);
    const refs = ajv.refs as Record<string, unknown>;
    if (Object.keys(refs).length !== baselineRefs.size) {
      for (const key of Object.keys(refs)) {
        if (!baselineRefs.has(key)) Reflect.deleteProperty(refs, key);
      }
    }
    trimValueScope(ajv, baselineScope);
  }
}

/** How many values ajv's shared code scope of `engine` holds: stays flat however many schemas are compiled. */
export function sharedScopeSize(engine: Engine): number {
  let size = 0;
  for (const count of scopeSizes(sharedEngine(engine).ajv).values()) size += count;
  return size;
}
