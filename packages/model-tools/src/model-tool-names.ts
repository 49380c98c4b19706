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
  const readable = new Map<string, string>();
  const ownerOfBase = new Map<string, string | typeof SHARED>();
  for (const name of registryNames) {
    if (readable.has(name)) continue;
    const base = readableName(name, separator, charset);
    readable.set(name, base);
    ownerOfBase.set(base, ownerOfBase.has(base) ? SHARED : name);
  }

  const toModel = new Map<string, string>();
  const toRegistry = new Map<string, string>();
  let clash = false;
  for (const [name, base] of readable) {
    const readableEnough = base !== UNREADABLE || name === UNREADABLE;
    const model =
      readableEnough && base.length <= maxLength && ownerOfBase.get(base) === name
        ? base
        : hashedName(base, name, SHORT_HASH, maxLength);
    toModel.set(name, model);
    if (toRegistry.has(model)) clash = true;
    else toRegistry.set(model, name);
  }
  if (clash) {
    // Rare (a hashed name meeting another name): settled over the whole set, in registry-name order.
    settleCollisions([...readable.keys()].sort(), readable, toModel, maxLength);
    toRegistry.clear();
    for (const [name, model] of toModel) toRegistry.set(model, name);
  }

  return {
    toModelName(registryName) {
      const model = toModel.get(registryName);
      if (model === undefined) {
        throw new ModelToolsError(
          "UNKNOWN_TOOL",
          `model tool names: ${JSON.stringify(registryName)} is not one of the ${toModel.size} tools this name map was built for; rebuild it after the registry changed`,
        );
      }
      return model;
    },
    toRegistryName: (modelName) => toRegistry.get(modelName),
    entries: () => [...toModel].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)).values(),
    get size() {
      return toModel.size;
    },
  };
}

/** The readable form: accents dropped, every other disallowed run an "_", the namespace joined by the separator. */
function readableName(registryName: string, separator: string, charset: Charset): string {
  const slash = registryName.indexOf("/");
  const joined =
    slash < 0
      ? sanitizePart(registryName, charset)
      : `${sanitizePart(registryName.slice(0, slash), charset)}${separator}${sanitizePart(registryName.slice(slash + 1), charset)}`;
  // Nothing readable left (a name in another script): a hash will tell such names apart.
  if (!/[a-zA-Z0-9]/.test(joined)) return UNREADABLE;
  // Gemini wants a letter or "_" first; one name for every provider keeps logs comparable.
  return /^[a-zA-Z_]/.test(joined) ? joined : `_${joined}`;
}

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
