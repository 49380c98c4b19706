import { mergeAllOf } from "./merge-all-of.js";
import {
  asSchemaNode,
  compactJson,
  describeWithNotes,
  isRecord,
  METADATA_KEYWORDS,
  pointerSegment,
  typesOf,
  type SchemaNode,
} from "./schema-keywords.js";

/** Gemini's Schema: a subset of OpenAPI 3.0 (ai.google.dev, "Function calling", Schema). */
const GEMINI_TYPES: Readonly<Record<string, string>> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};
const KEPT = new Set([
  "description",
  "title",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "minProperties",
  "maxProperties",
  "default",
]);
/** The Gemini Developer API refuses other formats. */
const GEMINI_FORMATS = new Set(["date-time", "enum"]);
const HANDLED = new Set([
  "type",
  "nullable",
  "enum",
  "const",
  "format",
  "examples",
  "example",
  "properties",
  "required",
  "items",
  "anyOf",
  "oneOf",
  "allOf",
  "additionalProperties",
]);
const SILENT = new Set(["deprecated", "readOnly", "writeOnly", "$defs", "definitions"]);

/**
 * Gemini function parameters: upper-case types, `nullable` instead of type lists, string-only
 * enums, no additionalProperties, const, oneOf, not or conditionals. What it cannot express is
 * written into the description. `root` must already be a plain object schema with references inlined.
 */
export function toGemini(root: SchemaNode, changes: string[]): SchemaNode {
  return convert(changes, root, "");
}

// A module-level function, not a closure per conversion: thousands of tools are converted at once.
function convert(changes: string[], node: SchemaNode, path: string): SchemaNode {
  const at = path === "" ? "/" : path;
  let work = node;
  const notes: string[] = [];
  if (Array.isArray(node.allOf)) {
    const merged = mergeAllOf(node);
    if (merged === undefined) {
      const { allOf, ...rest } = node;
      notes.push(`must also match allOf: ${compactJson(allOf)}`);
      work = rest;
    } else {
      changes.push(`${at}: allOf of object schemas merged into one object`);
      work = merged;
    }
  }
  const out: SchemaNode = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(work)) {
    if (KEPT.has(key)) out[key] = value;
    else if (METADATA_KEYWORDS.has(key) || SILENT.has(key)) dropped.push(key);
    else if (!HANDLED.has(key)) notes.push(`${key}: ${compactJson(value)}`);
  }
  if (dropped.length > 0) changes.push(`${at}: ${dropped.join(", ")} removed`);

  const types = typesOf(work);
  let nullable = work.nullable === true || types?.includes("null") === true;
  const concrete = (types ?? []).filter((type) => type !== "null");
  if (concrete.length === 1) {
    const type = GEMINI_TYPES[concrete[0] ?? ""];
    if (type === undefined) notes.push(`type: ${compactJson(concrete[0])}`);
    else out.type = type;
  } else if (concrete.length > 1) {
    out.anyOf = concrete
      .filter((type) => GEMINI_TYPES[type] !== undefined)
      .map((type) => ({ type: GEMINI_TYPES[type] }));
    changes.push(`${at}: type list ${compactJson(work.type)} turned into anyOf`);
  }
  if (types !== undefined && types.includes("null") && types.length > 1)
    changes.push(`${at}: "null" in the type list turned into nullable: true`);

  const enumValues = Array.isArray(work.enum) ? (work.enum as unknown[]) : "const" in work ? [work.const] : undefined;
  if (enumValues !== undefined) {
    const values = enumValues.filter((value) => value !== null);
    if (values.length < enumValues.length) nullable = true;
    if (values.every((value) => typeof value === "string") && values.length > 0) {
      out.type ??= "STRING";
      out.enum = values;
      out.format = "enum";
      if ("const" in work) changes.push(`${at}: const turned into a one-value enum`);
    } else {
      notes.push(`one of: ${compactJson(values)}`);
      changes.push(`${at}: a non-string ${"const" in work ? "const" : "enum"} moved into the description`);
    }
  }
  if (nullable) out.nullable = true;
  if (typeof work.format === "string" && out.format === undefined) {
    if (GEMINI_FORMATS.has(work.format)) out.format = work.format;
    else notes.push(`format: ${work.format}`);
  }
  if (Array.isArray(work.examples) && work.examples.length > 0) out.example = work.examples[0];
  else if ("example" in work) out.example = work.example;

  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = work[key];
    if (!Array.isArray(branches)) continue;
    if (key === "oneOf") changes.push(`${at}: oneOf turned into anyOf`);
    const converted: SchemaNode[] = [];
    branches.forEach((branch, index) => {
      const node = asSchemaNode(branch);
      const branchTypes = typesOf(node);
      // A { type: "null" } branch is Gemini's nullable flag.
      if (branchTypes?.length === 1 && branchTypes[0] === "null") out.nullable = true;
      else converted.push(convert(changes, node, `${path}/${key}/${index}`));
    });
    out.anyOf = [...((out.anyOf as SchemaNode[] | undefined) ?? []), ...converted];
  }
  const anyOf = out.anyOf as SchemaNode[] | undefined;
  if (anyOf?.length === 1 && out.type === undefined) {
    // One branch left (the usual "T or null"): the branch itself, without a one-item anyOf.
    const [only] = anyOf;
    delete out.anyOf;
    Object.assign(out, only, out.description === undefined ? {} : { description: out.description });
  } else if (anyOf?.length === 0) {
    delete out.anyOf;
  }

  if (isRecord(work.properties)) {
    out.type ??= "OBJECT";
    const properties: SchemaNode = {};
    for (const [name, schema] of Object.entries(work.properties)) {
      const converted = convert(changes, asSchemaNode(schema), `${path}/properties/${pointerSegment(name)}`);
      if (name === "__proto__")
        Object.defineProperty(properties, name, {
          value: converted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else properties[name] = converted;
    }
    out.properties = properties;
    const names = Object.keys(properties);
    if (Array.isArray(work.required))
      out.required = work.required.filter((name): name is string => typeof name === "string" && names.includes(name));
  }
  if (work.additionalProperties !== undefined) {
    if (work.additionalProperties === false) changes.push(`${at}: additionalProperties: false removed (not supported)`);
    else notes.push(`other keys allowed: ${compactJson(work.additionalProperties)}`);
  }
  if (isRecord(work.items)) out.items = convert(changes, work.items, `${path}/items`);
  else if (Array.isArray(work.items)) {
    notes.push(`items in this order: ${compactJson(work.items)}`);
    out.items = {
      anyOf: work.items.map((item, index) => convert(changes, asSchemaNode(item), `${path}/items/${index}`)),
    };
  }

  const description = describeWithNotes(out.description, notes);
  if (description !== undefined) out.description = description;
  if (notes.length > 0)
    changes.push(`${at}: ${notes.map((note) => note.split(":")[0]).join(", ")} moved into the description`);
  return out;
}
