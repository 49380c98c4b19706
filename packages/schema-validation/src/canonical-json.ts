import { invalidSchema } from "./errors.js";

/** Deeper than any real tool schema; keeps hostile schemas from exhausting the stack. */
export const MAX_SCHEMA_DEPTH = 256;

/**
 * The schema as JSON with object keys sorted, so equal schemas give the same string whatever
 * their key order: the compile cache's key.
 * @throws SchemaValidationError (SCHEMA_INVALID) when the schema is not JSON: circular, too deep,
 * or holding a function, symbol, BigInt, non-finite number or class instance.
 */
export function canonicalSchemaKey(schema: unknown): string {
  return serialize(schema, "", 0, new Set());
}

function serialize(value: unknown, pointer: string, depth: number, ancestors: Set<object>): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw notJson(pointer, String(value));
      return JSON.stringify(value);
    case "object":
      if (value === null) return "null";
      return serializeContainer(value, pointer, depth, ancestors);
    default:
      throw notJson(pointer, value === undefined ? "undefined" : `a ${typeof value}`);
  }
}

function serializeContainer(value: object, pointer: string, depth: number, ancestors: Set<object>): string {
  if (depth >= MAX_SCHEMA_DEPTH) {
    throw invalidSchema(`it is nested deeper than ${MAX_SCHEMA_DEPTH} levels (at ${describePointer(pointer)})`);
  }
  if (ancestors.has(value)) throw invalidSchema(`it is circular (${describePointer(pointer)} contains itself)`);
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let index = 0; index < value.length; index++) {
      items.push(serialize(value[index], `${pointer}/${index}`, depth + 1, ancestors));
    }
    text = `[${items.join(",")}]`;
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw notJson(pointer, "an object with a prototype (a class instance?)");
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      // Absent and undefined mean the same to a schema, as in JSON.stringify.
      if (member === undefined) continue;
      members.push(`${JSON.stringify(key)}:${serialize(member, `${pointer}/${escapePointer(key)}`, depth + 1, ancestors)}`);
    }
    text = `{${members.join(",")}}`;
  }
  ancestors.delete(value);
  return text;
}

function notJson(pointer: string, what: string) {
  return invalidSchema(`it is not JSON: ${describePointer(pointer)} is ${what}`);
}

function describePointer(pointer: string): string {
  return pointer === "" ? "the schema root" : `"${pointer}"`;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
