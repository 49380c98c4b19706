import { isRecord } from "@mcp-tool-adapter/core/value-rules";

// The schema files of this package import isRecord from here; the rule itself is core's.
export { isRecord };

/** A JSON Schema node as this package handles it (boolean schemas are turned into objects first). */
export type SchemaNode = Record<string, unknown>;

/** Keywords whose value is one subschema. */
export const SUBSCHEMA_KEYWORDS = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
]);
/** Keywords whose value is a list of subschemas (`items` too, in its draft-07 tuple form). */
export const SUBSCHEMA_LIST_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
]);

/** Keywords that identify or comment a schema and mean nothing to a model. */
export const METADATA_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
  "$dynamicRef",
]);

/** `true` accepts anything, `false` nothing; other non-objects are treated as "anything". */
export function asSchemaNode(value: unknown): SchemaNode {
  if (isRecord(value)) return value;
  return value === false ? { not: {} } : {};
}

/** The JSON types a node names, or undefined when it names none. */
export function typesOf(node: SchemaNode): string[] | undefined {
  if (typeof node.type === "string") return [node.type];
  if (!Array.isArray(node.type)) return undefined;
  // A loop, not filter: the registry's schemas are frozen, and V8 runs array callbacks slowly on those.
  const types: string[] = [];
  const list = node.type as unknown[];
  for (let index = 0; index < list.length; index += 1) {
    const type = list[index];
    if (typeof type === "string") types.push(type);
  }
  return types;
}

/** A JSON pointer (RFC 6901) segment for a key. */
export function pointerSegment(key: string): string {
  return key.includes("~") || key.includes("/") ? key.replace(/~/g, "~0").replace(/\//g, "~1") : key;
}

/** JSON.stringify as it behaves: undefined for functions, symbols and undefined. */
const stringify: (value: unknown) => string | undefined = JSON.stringify;

/** A value in compact JSON for descriptions and change notes; never throws. */
export function compactJson(value: unknown): string {
  // Numbers and booleans (most notes: limits, defaults) read the same; String() of a small
  // integer is V8's cached string, where JSON.stringify makes a new one each time.
  if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return String(value);
  try {
    const text = stringify(value);
    return text === undefined ? typeof value : text.length > 200 ? `${text.slice(0, 197)}...` : text;
  } catch {
    return typeof value;
  }
}

/** The node's description with notes for the model appended, e.g. "Name. (minLength: 3)". */
export function describeWithNotes(description: unknown, notes: readonly string[]): string | undefined {
  const base = typeof description === "string" ? description.trim() : "";
  if (notes.length === 0) return base === "" ? undefined : base;
  const suffix = `(${notes.join("; ")})`;
  return base === "" ? suffix : `${base} ${suffix}`;
}
