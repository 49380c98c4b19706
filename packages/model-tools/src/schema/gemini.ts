import {
  defineKey,
  DescriptionNotes,
  finishWithoutNotes,
  pointerOf,
  reportDropped,
  requiredNames,
  withMergedAllOf,
  type ChangeLog,
} from "./node-conversion.js";
import {
  asSchemaNode,
  compactJson,
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
const BRANCH_KEYWORDS = ["anyOf", "oneOf"] as const;

/**
 * Gemini function parameters: upper-case types, `nullable` instead of type lists, string-only
 * enums, no additionalProperties, const, oneOf, not or conditionals. What it cannot express is
 * written into the description. `root` must already be a plain object schema with references inlined.
 */
export function toGemini(root: SchemaNode, changes: ChangeLog): SchemaNode {
  return convert(changes, root, "");
}

// A module-level function, not a closure per conversion: thousands of tools are converted at once.
function convert(changes: ChangeLog, node: SchemaNode, path: string): SchemaNode {
  const at = pointerOf(path);
  let work = withMergedAllOf(node, at, changes);
  let notes: DescriptionNotes | undefined;
  if (work === undefined) {
    const { allOf, ...rest } = node;
    (notes = DescriptionNotes.take(changes)).add("must also match allOf", allOf);
    work = rest;
  }
  const out: SchemaNode = {};
  let dropped: string[] | undefined;
  for (const key in work) {
    if (!Object.hasOwn(work, key)) continue;
    if (KEPT.has(key)) out[key] = work[key];
    else if (METADATA_KEYWORDS.has(key) || SILENT.has(key)) {
      if (changes !== undefined) (dropped ??= []).push(key);
    } else if (!HANDLED.has(key)) (notes ??= DescriptionNotes.take(changes)).add(key, work[key]);
  }
  reportDropped(at, dropped, changes);

  const typeName = work.type;
  // One type name (most nodes): no list is made for it.
  const types = typeof typeName === "string" ? undefined : typesOf(work);
  let nullable = work.nullable === true || typeName === "null" || types?.includes("null") === true;
  // Counted, not filtered into a new array: this runs for every node of thousands of schemas.
  let concrete = 0;
  let name = "";
  if (typeof typeName === "string") {
    if (typeName !== "null") {
      concrete = 1;
      name = typeName;
    }
  } else if (types !== undefined)
    for (const type of types)
      if (type !== "null") {
        concrete += 1;
        name = type;
      }
  if (concrete === 1) {
    const type = GEMINI_TYPES[name];
    if (type === undefined) (notes ??= DescriptionNotes.take(changes)).add("type", name);
    else out.type = type;
  } else if (concrete > 1 && types !== undefined) {
    const branches: SchemaNode[] = [];
    for (const type of types)
      if (type !== "null" && GEMINI_TYPES[type] !== undefined) branches.push({ type: GEMINI_TYPES[type] });
    out.anyOf = branches;
    changes?.push(`${at}: type list ${compactJson(work.type)} turned into anyOf`);
  }
  if (types !== undefined && types.includes("null") && types.length > 1)
    changes?.push(`${at}: "null" in the type list turned into nullable: true`);

  const enumValues = Array.isArray(work.enum) ? (work.enum as unknown[]) : "const" in work ? [work.const] : undefined;
  if (enumValues !== undefined) {
    let hasNull = false;
    let allStrings = true;
    // An index loop: for-of over the registry's frozen lists made an iterator result per value.
    for (let index = 0; index < enumValues.length; index += 1) {
      const value = enumValues[index];
      if (value === null) hasNull = true;
      else if (typeof value !== "string") allStrings = false;
    }
    // The schema's own list when nothing is taken out of it (results are read-only, like the input).
    const values = hasNull ? enumValues.filter((value) => value !== null) : enumValues;
    if (hasNull) nullable = true;
    if (allStrings && values.length > 0) {
      out.type ??= "STRING";
      out.enum = values;
      out.format = "enum";
      if ("const" in work) changes?.push(`${at}: const turned into a one-value enum`);
    } else {
      (notes ??= DescriptionNotes.take(changes)).add("one of", values);
      changes?.push(`${at}: a non-string ${"const" in work ? "const" : "enum"} moved into the description`);
    }
  }
  if (nullable) out.nullable = true;
  if (typeof work.format === "string" && out.format === undefined) {
    if (GEMINI_FORMATS.has(work.format)) out.format = work.format;
    else (notes ??= DescriptionNotes.take(changes)).addText("format", work.format);
  }
  if (Array.isArray(work.examples) && work.examples.length > 0) out.example = work.examples[0];
  else if ("example" in work) out.example = work.example;

  for (const key of BRANCH_KEYWORDS) {
    const branches = work[key];
    if (!Array.isArray(branches)) continue;
    if (key === "oneOf") changes?.push(`${at}: oneOf turned into anyOf`);
    const converted = (out.anyOf as SchemaNode[] | undefined) ?? [];
    for (let index = 0; index < branches.length; index += 1) {
      const branch = asSchemaNode(branches[index]);
      const branchTypes = typesOf(branch);
      // A { type: "null" } branch is Gemini's nullable flag.
      if (branchTypes?.length === 1 && branchTypes[0] === "null") out.nullable = true;
      else converted.push(convert(changes, branch, changes === undefined ? "" : `${path}/${key}/${index}`));
    }
    out.anyOf = converted;
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
    const source = work.properties;
    for (const name in source) {
      if (!Object.hasOwn(source, name)) continue;
      defineKey(
        properties,
        name,
        convert(
          changes,
          asSchemaNode(source[name]),
          changes === undefined ? "" : `${path}/properties/${pointerSegment(name)}`,
        ),
      );
    }
    out.properties = properties;
    if (Array.isArray(work.required)) out.required = requiredOf(work.required as readonly unknown[], properties);
  }
  if (work.additionalProperties !== undefined) {
    if (work.additionalProperties === false)
      changes?.push(`${at}: additionalProperties: false removed (not supported)`);
    else (notes ??= DescriptionNotes.take(changes)).add("other keys allowed", work.additionalProperties);
  }
  if (isRecord(work.items)) out.items = convert(changes, work.items, changes === undefined ? "" : `${path}/items`);
  else if (Array.isArray(work.items)) {
    (notes ??= DescriptionNotes.take(changes)).add("items in this order", work.items);
    const items = work.items as unknown[];
    const branches: SchemaNode[] = [];
    for (let index = 0; index < items.length; index += 1)
      branches.push(
        convert(changes, asSchemaNode(items[index]), changes === undefined ? "" : `${path}/items/${index}`),
      );
    out.items = { anyOf: branches };
  }

  if (notes === undefined) finishWithoutNotes(out);
  else notes.finish(out, at, changes);
  return out;
}

/** The names of `list` that are properties; the list itself when they all are (the usual case). */
function requiredOf(list: readonly unknown[], properties: SchemaNode): readonly unknown[] {
  let all = true;
  for (let index = 0; index < list.length && all; index += 1) {
    const name = list[index];
    all = typeof name === "string" && Object.hasOwn(properties, name);
  }
  if (all) return list;
  const required: string[] = [];
  for (const name of requiredNames(list)) if (Object.hasOwn(properties, name)) required.push(name);
  return required;
}
