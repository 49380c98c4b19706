import { ModelToolsError } from "./model-tools-error.js";
import { shortHash } from "./short-hash.js";

/** The tool-name rule of OpenAI, Anthropic and Gemini function calling. */
export const MODEL_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
/** The names of charset "word": no "-", which the OpenAI Agents SDK turns into "_". */
export const MODEL_TOOL_WORD_NAME_PATTERN = /^[a-zA-Z0-9_]{1,64}$/;

/**
 * Which characters model names use: "standard" is the providers' rule (`a-z A-Z 0-9 _ -`);
 * "word" leaves out "-", for runtimes that rewrite it (the OpenAI Agents SDK makes "a-b" "a_b").
 */
export type ModelToolNameCharset = "standard" | "word";

export interface ModelToolNameOptions {
  /** Put between namespace and tool name; default `"__"` (`memory/read_graph` -> `memory__read_graph`). */
  separator?: string;
  /** Longest model name; default and upper bound 64, lower bound 16. */
  maxLength?: number;
  /** Default "standard"; "word" maps "-" like any other character outside the set. */
  charset?: ModelToolNameCharset;
}

/** The two-way map between registry names and the names a model sees. */
export interface ModelToolNames {
  /** The model's name for a registry name of the set; throws ModelToolsError UNKNOWN_TOOL otherwise. */
  toModelName(registryName: string): string;
  /** The registry name behind a model's name, or undefined for a name the set does not hold. */
  toRegistryName(modelName: string): string | undefined;
  /** Every pair, registry name first, in registry-name order. */
  entries(): IterableIterator<[registryName: string, modelName: string]>;
  readonly size: number;
}

interface Charset {
  readonly separator: RegExp;
  readonly clean: RegExp;
  readonly disallowedRun: RegExp;
  readonly allowed: string;
}

const CHARSETS: Readonly<Record<ModelToolNameCharset, Charset>> = {
  standard: {
    separator: /^[a-zA-Z0-9_-]{1,8}$/,
    clean: /^[a-zA-Z0-9_-]+$/,
    disallowedRun: /[^a-zA-Z0-9_-]+/g,
    allowed: 'a-z, A-Z, 0-9, "_" or "-"',
  },
  word: {
    separator: /^[a-zA-Z0-9_]{1,8}$/,
    clean: /^[a-zA-Z0-9_]+$/,
    disallowedRun: /[^a-zA-Z0-9_]+/g,
    allowed: 'a-z, A-Z, 0-9 or "_" (charset "word")',
  },
};
const MIN_LENGTH = 16;
const SHORT_HASH = 7;
const LONG_HASH = 11;
const COMBINING_MARKS = /\p{M}+/gu;
const UNREADABLE = "tool";
/** A base shared by more than one registry name. */
const SHARED = Symbol("shared");

/**
 * Maps registry names (`namespace/tool`, any Unicode) to model-safe names. Readable where it can
 * be (`memory__read_graph`); a name that is too long, or that would meet another name of the set
 * once sanitised, gets a short hash of its full registry name. So a model name depends only on
 * its registry name and on which other names it collides with, never on the order they came in.
 */
export function createModelToolNames(
  registryNames: Iterable<string>,
  options: ModelToolNameOptions = {},
): ModelToolNames {
  return mapModelToolNames(registryNames, options).names;
}

/** The name map, and each registry name's model name in the order given (each name once). */
export interface ModelToolNameMapping {
  readonly names: ModelToolNames;
  readonly registryNames: readonly string[];
  readonly modelNames: readonly string[];
}

export function mapModelToolNames(
  registryNames: Iterable<string>,
  options: ModelToolNameOptions = {},
): ModelToolNameMapping {
  const separator = options.separator ?? "__";
  const maxLength = options.maxLength ?? 64;
  const charsetName = options.charset ?? "standard";
  const charset = Object.hasOwn(CHARSETS, charsetName) ? CHARSETS[charsetName] : undefined;
  if (charset === undefined) {
    throw new ModelToolsError(
      "INVALID_OPTIONS",
      `model tool names: charset ${JSON.stringify(charsetName)} is not known; use "standard" or "word"`,
    );
  }
  if (typeof separator !== "string" || !charset.separator.test(separator)) {
    throw new ModelToolsError(
      "INVALID_OPTIONS",
      `model tool names: separator ${JSON.stringify(separator)} is not allowed; use 1-8 characters of ${charset.allowed}`,
    );
  }
  if (!Number.isInteger(maxLength) || maxLength < MIN_LENGTH || maxLength > 64) {
    throw new ModelToolsError(
      "INVALID_OPTIONS",
      `model tool names: maxLength ${String(maxLength)} is not allowed; use a whole number from ${MIN_LENGTH} to 64 (the providers' limit)`,
    );
  }
  // No sort of the whole set: thousands of names are mapped per agent step, and only names that
  // meet need an order (sorted within their group below), which keeps the map order-independent.
  // Parallel arrays and one map of bases, not a map per step: this runs for every name of the set.
  const names: string[] = [];
  const bases: string[] = [];
  const ownerOfBase = new Map<string, string | typeof SHARED>();
  const readableOf = readableNames(separator, charset);
  for (const name of registryNames) {
    const base = readableOf(name);
    const owner = ownerOfBase.get(base);
    if (owner === name) continue; // the same registry name again
    ownerOfBase.set(base, owner === undefined ? name : SHARED);
    // A name given twice whose base is shared lands here twice: it maps the same way both times.
    names.push(name);
    bases.push(base);
  }

  const models: string[] = new Array<string>(names.length);
  // Hashed names are few: only they can meet another model name, and only they are tracked for it.
  let hashed: Set<string> | undefined;
  let clash = false;
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const base = bases[index] as string;
    const readableEnough = base !== UNREADABLE || name === UNREADABLE;
    if (readableEnough && base.length <= maxLength && ownerOfBase.get(base) === name) models[index] = base;
    else {
      const model = hashedName(base, name, SHORT_HASH, maxLength);
      models[index] = model;
      // Meeting any base is counted (even one that ends up hashed itself): the settling below is exact.
      if (ownerOfBase.has(model) || hashed?.has(model) === true) clash = true;
      (hashed ??= new Set()).add(model);
    }
  }
  let toModel: Map<string, string> | undefined;
  if (clash) {
    // Rare (a hashed name meeting another name): settled over the whole set, in registry-name order.
    const readable = new Map<string, string>();
    toModel = new Map();
    for (let index = 0; index < names.length; index += 1) {
      readable.set(names[index] as string, bases[index] as string);
      toModel.set(names[index] as string, models[index] as string);
    }
    settleCollisions([...readable.keys()].sort(), readable, toModel, maxLength);
    for (let index = 0; index < names.length; index += 1) models[index] = toModel.get(names[index] as string) as string;
  }
  let unique = names;
  let uniqueModels = models;
  if (names.length !== ownerOfBase.size) {
    // Shared bases, or a name given twice (then its base is shared): each name once in the lists returned.
    const seen = new Set<string>();
    unique = [];
    uniqueModels = [];
    for (let index = 0; index < names.length; index += 1) {
      const name = names[index] as string;
      if (seen.has(name)) continue;
      seen.add(name);
      unique.push(name);
      uniqueModels.push(models[index] as string);
    }
  }
  return {
    names: new LazyNameMaps(unique, uniqueModels, toModel),
    registryNames: unique,
    modelNames: uniqueModels,
  };
}

/**
 * The two maps, built on first use: a conversion of thousands of tools needs only the lists, and
 * a map of thousands of entries per agent step was a good part of a conversion's cost.
 */
class LazyNameMaps implements ModelToolNames {
  readonly #registryNames: readonly string[];
  readonly #modelNames: readonly string[];
  #toModel: Map<string, string> | undefined;
  #toRegistry: Map<string, string> | undefined;

  constructor(
    registryNames: readonly string[],
    modelNames: readonly string[],
    toModel: Map<string, string> | undefined,
  ) {
    this.#registryNames = registryNames;
    this.#modelNames = modelNames;
    this.#toModel = toModel;
  }

  get size(): number {
    return this.#registryNames.length;
  }

  toModelName(registryName: string): string {
    const model = this.#modelMap().get(registryName);
    if (model === undefined) {
      throw new ModelToolsError(
        "UNKNOWN_TOOL",
        `model tool names: ${JSON.stringify(registryName)} is not one of the ${this.size} tools this name map was built for; rebuild it after the registry changed`,
      );
    }
    return model;
  }

  toRegistryName(modelName: string): string | undefined {
    if (this.#toRegistry === undefined) {
      this.#toRegistry = new Map();
      for (let index = 0; index < this.#registryNames.length; index += 1)
        this.#toRegistry.set(this.#modelNames[index] as string, this.#registryNames[index] as string);
    }
    return this.#toRegistry.get(modelName);
  }

  entries(): IterableIterator<[registryName: string, modelName: string]> {
    return [...this.#modelMap()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).values();
  }

  #modelMap(): Map<string, string> {
    if (this.#toModel === undefined) {
      this.#toModel = new Map();
      for (let index = 0; index < this.#registryNames.length; index += 1)
        this.#toModel.set(this.#registryNames[index] as string, this.#modelNames[index] as string);
    }
    return this.#toModel;
  }
}

/**
 * The readable form: accents dropped, every other disallowed run an "_", the namespace joined by
 * the separator. The namespace part is worked out once for a run of names that share it.
 */
function readableNames(separator: string, charset: Charset): (registryName: string) => string {
  let namespace: string | undefined;
  let prefix = "";
  return (registryName) => {
    const slash = registryName.indexOf("/");
    let joined: string;
    if (slash < 0) joined = sanitizePart(registryName, charset);
    else {
      const nextNamespace = registryName.slice(0, slash);
      if (nextNamespace !== namespace) {
        namespace = nextNamespace;
        prefix = `${sanitizePart(nextNamespace, charset)}${separator}`;
      }
      joined = `${prefix}${sanitizePart(registryName.slice(slash + 1), charset)}`;
    }
    // Nothing readable left (a name in another script): a hash will tell such names apart.
    if (!HAS_ALPHANUMERIC.test(joined)) return UNREADABLE;
    // Gemini wants a letter or "_" first; one name for every provider keeps logs comparable.
    return STARTS_WELL.test(joined) ? joined : `_${joined}`;
  };
}

const HAS_ALPHANUMERIC = /[a-zA-Z0-9]/;
const STARTS_WELL = /^[a-zA-Z_]/;

/** Most names are plain ASCII already; only the others pay for Unicode normalisation. */
function sanitizePart(part: string, charset: Charset): string {
  if (charset.clean.test(part)) return part;
  return part.normalize("NFKD").replace(COMBINING_MARKS, "").replace(charset.disallowedRun, "_");
}

function hashedName(base: string, registryName: string, hashLength: number, maxLength: number): string {
  const hash = shortHash(registryName, hashLength);
  return `${base.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

/**
 * A hashed name can, very rarely, still meet another model name. Those are given a longer hash,
 * then (for a true hash collision) a counter in registry-name order, so the map stays injective.
 */
function settleCollisions(
  names: readonly string[],
  readable: ReadonlyMap<string, string>,
  toModel: Map<string, string>,
  maxLength: number,
): void {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const owners = new Map<string, string[]>();
    for (const name of names) {
      const model = toModel.get(name) ?? name;
      const list = owners.get(model);
      if (list === undefined) owners.set(model, [name]);
      else list.push(name);
    }
    let clashes = 0;
    for (const list of owners.values()) {
      if (list.length < 2) continue;
      clashes += 1;
      // A readable (unhashed) name keeps its form; only hashed ones move.
      const hashed = list.filter((name) => toModel.get(name) !== readable.get(name));
      hashed.forEach((name, index) => {
        const base = readable.get(name) ?? name;
        toModel.set(name, hashedName(base, attempt === 0 ? name : `${name}\u0000${index}`, LONG_HASH, maxLength));
      });
    }
    if (clashes === 0) return;
  }
  throw new ModelToolsError(
    "INVALID_OPTIONS",
    "model tool names: could not give every tool a distinct name; please report this set of names",
  );
}
