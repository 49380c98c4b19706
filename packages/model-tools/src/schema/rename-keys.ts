import { shortHash } from "../short-hash.js";
import { defineKey, requiredNames, type ChangeLog } from "./node-conversion.js";
import { isRecord, pointerSegment, type SchemaNode } from "./schema-keywords.js";

/**
 * Property names Anthropic accepts in `input_schema`. Gemini documents no rule of its own and
 * refuses some keys that JSON Schema allows; the same rule is applied to it, so a key has one
 * model name for both.
 */
export const PROVIDER_PROPERTY_KEY_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

const MAX_KEY_LENGTH = 64;
const DISALLOWED_RUN = /[^a-zA-Z0-9_.-]+/g;
const COMBINING_MARKS = /\p{M}+/gu;
const MAX_DEPTH = 64;
const BRANCH_KEYWORDS = ["anyOf", "oneOf"] as const;

/** Where, in the model's arguments, keys must be renamed back to the tool's real keys. */
export interface KeyRenames {
  /** Model key -> real key, for the keys of this object that were renamed. */
  readonly back?: ReadonlyMap<string, string>;
  /** Renames inside the value of a property, by the property's model key. */
  readonly properties?: ReadonlyMap<string, KeyRenames>;
  readonly items?: KeyRenames;
}

export interface RenamedSchema {
  readonly schema: SchemaNode;
  /** Undefined when every key was accepted as it is. */
  readonly renames: KeyRenames | undefined;
}

/**
 * Renames the property keys a provider refuses (`"first name"`, `"数据"`, a 65-character key) to
 * accepted ones, deterministically: a key's new name depends only on the keys of its own object
 * (readable where it can be, a short hash where two would meet), so the same schema always
 * converts the same way. Nodes on the way to a renamed key are copied; the rest is shared.
 */
export function renamePropertyKeys(schema: SchemaNode, changes: ChangeLog): RenamedSchema {
  const result = renameIn(schema, "", changes, 0);
  return result === undefined ? { schema, renames: undefined } : result;
}

/** The model's arguments with the real keys back; values are shared, objects on the way copied. */
export function renameKeysBack(value: unknown, renames: KeyRenames): unknown {
  if (Array.isArray(value)) {
    const items = renames.items;
    return items === undefined ? value : value.map((item) => renameKeysBack(item, items));
  }
  if (!isRecord(value) || (renames.back === undefined && renames.properties === undefined)) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const child = renames.properties?.get(key);
    const item = value[key];
    // A key the model made up that meets a real key's original name is left for validation to refuse.
    defineKey(out, renames.back?.get(key) ?? key, child === undefined ? item : renameKeysBack(item, child));
  }
  return out;
}

function renameIn(node: SchemaNode, path: string, changes: ChangeLog, depth: number): RenamedSchema | undefined {
  if (depth > MAX_DEPTH) return undefined;
  let copy: SchemaNode | undefined;
  let back: Map<string, string> | undefined;
  let nested: Map<string, KeyRenames> | undefined;
  let items: KeyRenames | undefined;

  if (isRecord(node.properties)) {
    const source = node.properties;
    // The keys as a list only for an object that has a nested object or a refused key: most
    // properties of most tools are leaves with accepted names, and this runs for every node.
    const keys = needsKeyList(source) ? Object.keys(source) : NO_KEYS;
    const toModel = modelKeys(keys);
    let properties: SchemaNode | undefined;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const modelKey = toModel?.get(key) ?? key;
      const child = isRecord(source[key])
        ? renameIn(
            source[key],
            changes === undefined ? "" : `${path}/properties/${pointerSegment(key)}`,
            changes,
            depth + 1,
          )
        : undefined;
      if (child?.renames !== undefined) (nested ??= new Map()).set(modelKey, child.renames);
      if (modelKey !== key || child !== undefined) {
        properties ??= copyFirst(source, keys, index);
      }
      if (properties !== undefined) defineKey(properties, modelKey, child?.schema ?? source[key]);
    }
    if (toModel !== undefined) {
      back = new Map();
      for (const [key, modelKey] of toModel) {
        back.set(modelKey, key);
        changes?.push(
          `${path === "" ? "/" : path}: property ${JSON.stringify(key)} renamed to ${JSON.stringify(modelKey)} (the provider refuses the name); the model's arguments are renamed back`,
        );
      }
    }
    if (properties !== undefined) {
      copy = { ...node, properties };
      if (toModel !== undefined && Array.isArray(node.required))
        copy.required = requiredNames(node.required).map((name) => toModel.get(name) ?? name);
    }
  }
  if (isRecord(node.items)) {
    const child = renameIn(node.items, changes === undefined ? "" : `${path}/items`, changes, depth + 1);
    if (child !== undefined) {
      copy = { ...(copy ?? node), items: child.schema };
      items = child.renames;
    }
  }
  // Branches describe the same value: their renames apply at this level (the first branch wins a clash).
  for (const keyword of BRANCH_KEYWORDS) {
    const branches = node[keyword];
    if (!Array.isArray(branches)) continue;
    let converted: unknown[] | undefined;
    for (let index = 0; index < branches.length; index += 1) {
      const branch: unknown = branches[index];
      const child = isRecord(branch)
        ? renameIn(branch, changes === undefined ? "" : `${path}/${keyword}/${index}`, changes, depth + 1)
        : undefined;
      if (child === undefined) {
        if (converted !== undefined) converted.push(branch);
        continue;
      }
      converted ??= branches.slice(0, index);
      converted.push(child.schema);
      const renames = child.renames;
      if (renames === undefined) continue;
      for (const [modelKey, key] of renames.back ?? [])
        if (!(back ??= new Map()).has(modelKey)) back.set(modelKey, key);
      for (const [modelKey, inner] of renames.properties ?? [])
        if (!(nested ??= new Map()).has(modelKey)) nested.set(modelKey, inner);
      items ??= renames.items;
    }
    if (converted !== undefined) copy = { ...(copy ?? node), [keyword]: converted };
  }
  if (copy === undefined) return undefined;
  const renames: KeyRenames | undefined =
    back === undefined && nested === undefined && items === undefined
      ? undefined
      : { ...(back && { back }), ...(nested && { properties: nested }), ...(items && { items }) };
  return { schema: copy, renames };
}

function copyFirst(source: SchemaNode, keys: readonly string[], count: number): SchemaNode {
  const properties: SchemaNode = {};
  for (let index = 0; index < count; index += 1)
    defineKey(properties, keys[index] as string, source[keys[index] as string]);
  return properties;
}

/**
 * Real key -> model key for the keys of one object that the providers refuse; undefined when
 * there are none. Accepted keys keep their names; a refused key becomes its readable form
 * unless that is taken or shared, then the form with a hash of the real key.
 */
function modelKeys(keys: readonly string[]): Map<string, string> | undefined {
  let refused: string[] | undefined;
  for (const key of keys) if (!PROVIDER_PROPERTY_KEY_PATTERN.test(key)) (refused ??= []).push(key);
  if (refused === undefined) return undefined;
  refused.sort();
  const taken = new Set(keys.filter((key) => PROVIDER_PROPERTY_KEY_PATTERN.test(key)));
  const bases = new Map<string, number>();
  const readable = refused.map((key) => {
    const base = readableKey(key);
    bases.set(base, (bases.get(base) ?? 0) + 1);
    return base;
  });
  const toModel = new Map<string, string>();
  refused.forEach((key, index) => {
    const base = readable[index] ?? "key";
    let candidate =
      base.length <= MAX_KEY_LENGTH && bases.get(base) === 1 && !taken.has(base) ? base : hashed(base, key, 7);
    // In key order, so the outcome depends only on the set of keys.
    for (let attempt = 0; taken.has(candidate); attempt += 1) candidate = hashed(base, `${key}\u0000${attempt}`, 11);
    taken.add(candidate);
    toModel.set(key, candidate);
  });
  return toModel;
}

function readableKey(key: string): string {
  const base = key.normalize("NFKD").replace(COMBINING_MARKS, "").replace(DISALLOWED_RUN, "_");
  return /[a-zA-Z0-9]/.test(base) ? base : "key";
}

function hashed(base: string, seed: string, length: number): string {
  return `${base.slice(0, MAX_KEY_LENGTH - length - 1)}_${shortHash(seed, length)}`;
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/** Whether any property of `source` has a refused key or a schema with property keys inside. */
function needsKeyList(source: SchemaNode): boolean {
  for (const key in source) {
    if (!Object.hasOwn(source, key)) continue;
    if (!PROVIDER_PROPERTY_KEY_PATTERN.test(key) || mayHoldKeys(source[key], 0)) return true;
  }
  return false;
}

/** Whether `renameIn` could find property keys in the schema: a yes only costs the full walk. */
function mayHoldKeys(node: unknown, depth: number): boolean {
  if (!isRecord(node)) return false;
  if (node.properties !== undefined || node.anyOf !== undefined || node.oneOf !== undefined) return true;
  const items = node.items;
  if (items === undefined) return false;
  return depth > MAX_DEPTH || !isRecord(items) || mayHoldKeys(items, depth + 1);
}
