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
  return serialize(schema, [], new Set());
}

// The path to the value being serialized; turned into a JSON Pointer only for an error message,
// as building one string per member cost more than the rest of the serialization.
type Path = (string | number)[];

function serialize(value: unknown, path: Path, ancestors: Set<object>): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw notJson(path, String(value));
      return JSON.stringify(value);
    case "object":
      if (value === null) return "null";
      return serializeContainer(value, path, ancestors);
    default:
      throw notJson(path, value === undefined ? "undefined" : `a ${typeof value}`);
  }
}

function serializeContainer(value: object, path: Path, ancestors: Set<object>): string {
  if (path.length >= MAX_SCHEMA_DEPTH) {
    throw invalidSchema(`it is nested deeper than ${MAX_SCHEMA_DEPTH} levels (at ${describePath(path)})`);
  }
  if (ancestors.has(value)) throw invalidSchema(`it is circular (${describePath(path)} contains itself)`);
  ancestors.add(value);
  let text: string;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      items.push(serialize(value[index], path, ancestors));
      path.pop();
    }
    text = `[${items.join(",")}]`;
  } else {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      throw notJson(path, "an object with a prototype (a class instance?)");
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      // Absent and undefined mean the same to a schema, as in JSON.stringify.
      if (member === undefined) continue;
      path.push(key);
      members.push(`${JSON.stringify(key)}:${serialize(member, path, ancestors)}`);
      path.pop();
    }
    text = `{${members.join(",")}}`;
  }
  ancestors.delete(value);
  return text;
}

function notJson(path: Path, what: string) {
  return invalidSchema(`it is not JSON: ${describePath(path)} is ${what}`);
}

function describePath(path: Path): string {
  return path.length === 0 ? "the schema root" : `"${path.map((key) => `/${escapePointer(String(key))}`).join("")}"`;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
