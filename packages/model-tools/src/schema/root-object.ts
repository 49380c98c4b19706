import { mergeAllOf } from "./merge-all-of.js";
import type { ChangeLog } from "./node-conversion.js";
import {
  compactJson,
  describeWithNotes,
  isRecord,
  METADATA_KEYWORDS,
  typesOf,
  type SchemaNode,
} from "./schema-keywords.js";

/** Root keywords the providers refuse on function parameters (they want a plain object schema). */
const ROOT_REFUSED = ["anyOf", "oneOf", "not", "enum", "const", "if", "then", "else", "allOf"];
const ROOT_REFUSED_KEYS = new Set(ROOT_REFUSED);

/**
 * The root every provider wants: `type: "object"` with `properties`, no composition keywords at
 * the top. What had to go is kept for the model in the description and listed in `changes`.
 * A root that is that already is returned as it is (the registry's frozen schema: no copy).
 */
export function rootObject(schema: SchemaNode, changes: ChangeLog): SchemaNode {
  if (isPlainRoot(schema)) return schema;
  let root: SchemaNode = {};
  const dropped: string[] = [];
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    if (METADATA_KEYWORDS.has(key)) dropped.push(key);
    else root[key] = schema[key];
  }
  if (dropped.length > 0) changes?.push(`/: ${dropped.join(", ")} removed`);
  if (Array.isArray(root.allOf)) {
    const merged = mergeAllOf(root);
    if (merged === undefined) {
      changes?.push("/: allOf at the top level is not accepted; removed, its parts are described in the description");
    } else {
      changes?.push("/: allOf of object schemas merged into one object");
      root = merged;
    }
  }
  const notes: string[] = [];
  for (const key of ROOT_REFUSED) {
    if (key in root) {
      notes.push(`${key}: ${compactJson(root[key])}`);
      Reflect.deleteProperty(root, key);
      if (key !== "allOf") changes?.push(`/: ${key} at the top level is not accepted; moved into the description`);
    }
  }
  const types = typesOf(root);
  if (types !== undefined && !(types.length === 1 && types[0] === "object")) {
    changes?.push(`/: type ${compactJson(root.type)} replaced by "object" (function arguments are always an object)`);
  }
  root.type = "object";
  if (!isRecord(root.properties)) root.properties = {};
  const description = describeWithNotes(
    root.description,
    notes.length === 0 ? [] : [`the arguments must also match ${notes.join(", ")}`],
  );
  if (description !== undefined) root.description = description;
  return root;
}

/** Whether the root needs nothing done: the usual tool schema. */
function isPlainRoot(schema: SchemaNode): boolean {
  if (schema.type !== "object" || !isRecord(schema.properties)) return false;
  const description = schema.description;
  if (description !== undefined && (typeof description !== "string" || description.trim() !== description))
    return false;
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    if (METADATA_KEYWORDS.has(key) || ROOT_REFUSED_KEYS.has(key)) return false;
  }
  return true;
}
