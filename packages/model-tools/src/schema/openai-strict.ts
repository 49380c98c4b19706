import {
  defineKey,
  DescriptionNotes,
  finishWithoutNotes,
  pointerOf,
  reportDropped,
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

/** OpenAI structured outputs: types, formats and limits (platform.openai.com, "Supported schemas"). */
const STRICT_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
const KEPT = new Set([
  "type",
  "description",
  "title",
  "enum",
  "const",
  "pattern",
  "multipleOf",
  "maximum",
  "minimum",
  "minItems",
  "maxItems",
]);
/** Constraints strict mode refuses; the model reads them in the description, our validation enforces them. */
const DESCRIBED = new Set([
  "minLength",
  "maxLength",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "default",
  "examples",
  "contains",
  "minContains",
  "maxContains",
  "dependentRequired",
  "dependentSchemas",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
]);
/**
 * Keywords that allow values strict mode would forbid (keys matching a pattern, tuple items):
 * a strict schema would take something away from the model, so the tool is sent non-strict.
 */
const BLOCKING = new Set(["patternProperties", "prefixItems", "additionalItems", "unevaluatedItems"]);
const SILENT = new Set(["deprecated", "readOnly", "writeOnly", "nullable", "$defs", "definitions"]);
/** Keywords the converter reads below, after the keyword loop. */
const STRUCTURAL = new Set(["properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf"]);
const MAX_OBJECT_DEPTH = 10;
const BRANCH_KEYWORDS = ["anyOf", "oneOf"] as const;
const MAX_PROPERTIES = 5_000;

/**
 * OpenAI strict function calling: every object lists all its properties in `required` (optional
 * ones become nullable) and has `additionalProperties: false`; unsupported constraints move into
 * the description. `root` must already be a plain object schema with references inlined. Why the
 * schema cannot be strict without changing its meaning goes into the context's
 * `blockers` (left undefined when it can).
 */
export function toOpenAIStrict(root: SchemaNode, context: StrictContext): SchemaNode {
  const schema = convert(context, root, "", 0, true);
  if (context.propertyCount > MAX_PROPERTIES) block(context, `/: more than ${MAX_PROPERTIES} properties in all`);
  return schema;
}

/** One strict conversion's state; `blockers` stays undefined (no list made) for a schema that can be strict, as most can. */
export interface StrictContext {
  readonly changes: ChangeLog;
  blockers: string[] | undefined;
  propertyCount: number;
}

export function strictContext(changes: ChangeLog): StrictContext {
  return { changes, blockers: undefined, propertyCount: 0 };
}

/** Why the schema cannot be strict without changing its meaning. */
export function block(context: StrictContext, reason: string): void {
  (context.blockers ??= []).push(reason);
}

// A module-level function, not a closure per conversion: thousands of tools are converted at once.
function convert(
  context: StrictContext,
  node: SchemaNode,
  path: string,
  objectDepth: number,
  isRoot: boolean,
): SchemaNode {
  const { changes } = context;
  const at = pointerOf(path);
  const merged = withMergedAllOf(node, at, changes);
  if (merged === undefined) block(context, `${at}: allOf that is not a merge of plain objects`);
  const work = merged ?? node;
  const out: SchemaNode = {};
  let notes: DescriptionNotes | undefined;
  let dropped: string[] | undefined;
  for (const key in work) {
    if (!Object.hasOwn(work, key)) continue;
    const value = work[key];
    if (KEPT.has(key)) out[key] = value;
    else if (key === "format") {
      if (typeof value === "string" && STRICT_FORMATS.has(value)) out.format = value;
      else (notes ??= DescriptionNotes.take(changes)).add("format", value);
    } else if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
      if (typeof value === "number") out[key] = value;
      else (notes ??= DescriptionNotes.take(changes)).add(key, value);
    } else if (DESCRIBED.has(key)) (notes ??= DescriptionNotes.take(changes)).add(key, value);
    else if (BLOCKING.has(key)) block(context, `${at}: ${key} is not supported`);
    else if (key === "unevaluatedProperties") {
      if (value !== false) block(context, `${at}: unevaluatedProperties is not supported`);
    } else if (changes !== undefined && (METADATA_KEYWORDS.has(key) || SILENT.has(key) || !STRUCTURAL.has(key)))
      (dropped ??= []).push(key);
  }
  reportDropped(at, dropped, changes);

  const type = work.type;
  // One type name (most nodes): no list is made for it.
  let types = typeof type === "string" ? undefined : typesOf(work);
  if (work.nullable === true) {
    if (typeof type === "string") {
      if (type !== "null") out.type = nullableType(type);
    } else if (types !== undefined && !types.includes("null")) {
      types = [...types, "null"];
      out.type = types;
    }
  }
  if (typeof type === "string") {
    if (!STRICT_TYPES.has(type)) block(context, `${at}: type ${compactJson(type)} is not supported`);
  } else if (types !== undefined)
    for (const name of types)
      if (!STRICT_TYPES.has(name)) block(context, `${at}: type ${compactJson(name)} is not supported`);
  const typed = typeof type === "string" || types !== undefined;

  for (const key of BRANCH_KEYWORDS) {
    const branches = work[key];
    if (!Array.isArray(branches)) continue;
    if (isRoot) block(context, `/: ${key} at the top level is not supported`);
    if (key === "oneOf")
      changes?.push(
        `${at}: oneOf turned into anyOf (a value matching several branches is then refused by the tool's own validation)`,
      );
    const converted = (out.anyOf as SchemaNode[] | undefined) ?? [];
    for (let index = 0; index < branches.length; index += 1)
      converted.push(
        convert(
          context,
          asSchemaNode(branches[index]),
          changes === undefined ? "" : `${path}/${key}/${index}`,
          objectDepth,
          false,
        ),
      );
    out.anyOf = converted;
  }
  if (!typed && out.anyOf === undefined && out.enum === undefined && !("const" in out)) {
    block(context, `${at}: a value of any type is not supported (the schema names no type)`);
  }

  const isObject = type === "object" || types?.includes("object") === true || (!typed && isRecord(work.properties));
  if (isObject) convertObject(context, work, out, path, at, objectDepth, isRoot, typed);

  if (type === "array" || types?.includes("array") === true) {
    const items = work.items;
    if (isRecord(items))
      out.items = convert(context, items, changes === undefined ? "" : `${path}/items`, objectDepth, false);
    else if (Array.isArray(items)) block(context, `${at}: tuple items are not supported`);
    else block(context, `${at}: an array of items of any type`);
  }

  if (notes === undefined) finishWithoutNotes(out);
  else notes.finish(out, at, changes);
  return out;
}

/** Every property required (optional ones nullable), no other keys. */
function convertObject(
  context: StrictContext,
  work: SchemaNode,
  out: SchemaNode,
  path: string,
  at: string,
  objectDepth: number,
  isRoot: boolean,
  typed: boolean,
): void {
  const { changes } = context;
  if (!typed) out.type = "object";
  if (objectDepth >= MAX_OBJECT_DEPTH) block(context, `${at}: objects nested deeper than ${MAX_OBJECT_DEPTH} levels`);
  const properties = isRecord(work.properties) ? work.properties : {};
  const names = Object.keys(properties);
  context.propertyCount += names.length;
  const extra = work.additionalProperties;
  if (isRecord(extra)) block(context, `${at}: typed additional properties (a map) are not supported`);
  else if (names.length === 0 && !isRoot && extra !== false) block(context, `${at}: an object with free-form keys`);
  // The registry's own list, read in place (short lists: a scan costs less than a set).
  const required = Array.isArray(work.required) ? (work.required as readonly unknown[]) : NO_NAMES;
  for (let index = 0; index < required.length; index += 1) {
    const name = required[index];
    if (typeof name === "string" && !Object.hasOwn(properties, name) && required.indexOf(name) === index)
      block(context, `${at}: required property ${compactJson(name)} has no schema`);
  }
  const convertedProperties: SchemaNode = {};
  let optional: string[] | undefined;
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const property = asSchemaNode(properties[name]);
    if (required.includes(name)) {
      const converted = convert(
        context,
        property,
        changes === undefined ? "" : `${path}/properties/${pointerSegment(name)}`,
        objectDepth + 1,
        false,
      );
      defineKey(convertedProperties, name, converted);
      continue;
    }
    // An optional property with nothing but a plain type (a flag, a plain string) converts to
    // itself, which nullable() turns into a shared leaf: that leaf at once, no node made and dropped.
    const leafType = onlyType(property);
    defineKey(
      convertedProperties,
      name,
      leafType !== undefined && PLAIN_LEAF_TYPES.has(leafType) && Object.hasOwn(property, "type")
        ? nullableLeaf(leafType)
        : nullable(
            convert(
              context,
              property,
              changes === undefined ? "" : `${path}/properties/${pointerSegment(name)}`,
              objectDepth + 1,
              false,
            ),
          ),
    );
    if (changes !== undefined) (optional ??= []).push(compactJson(name));
  }
  out.properties = convertedProperties;
  out.required = names;
  out.additionalProperties = false;
  if (optional !== undefined)
    changes?.push(`${at}: optional ${optional.join(", ")} made required and nullable (null means "not given")`);
  if (extra !== false && names.length > 0) changes?.push(`${at}: additionalProperties set to false`);
}

const NO_NAMES: readonly unknown[] = Object.freeze([]);
/** Types whose node `{ type }` converts to itself: no keywords to drop, no notes, no blockers. */
const PLAIN_LEAF_TYPES = new Set(["string", "number", "integer", "boolean"]);

/**
 * `[type, "null"]`, one shared frozen list per type name: most optional properties of most tools
 * need one, and a list per property was a good part of what a conversion kept alive.
 */
const NULLABLE_TYPES = new Map<string, readonly string[]>();

function nullableType(type: string): readonly string[] {
  let list = NULLABLE_TYPES.get(type);
  if (list === undefined) {
    list = Object.freeze([type, "null"]);
    // Only the JSON types are shared: an unknown name from a hostile schema must not grow the table.
    if (STRICT_TYPES.has(type)) NULLABLE_TYPES.set(type, list);
  }
  return list;
}

/**
 * `{ type: [type, "null"] }` for each JSON type, frozen and shared by every conversion: an optional
 * property with nothing but a type (a flag, a plain string) is common, and one object per tool
 * was kept alive for it. Converted schemas are read-only by contract; these are frozen besides.
 */
const NULLABLE_LEAVES = new Map<string, SchemaNode>();

function nullableLeaf(type: string): SchemaNode {
  let leaf = NULLABLE_LEAVES.get(type);
  if (leaf === undefined) {
    leaf = Object.freeze({ type: nullableType(type) });
    NULLABLE_LEAVES.set(type, leaf);
  }
  return leaf;
}

/** The type of a node that has no other key, else undefined. */
function onlyType(node: SchemaNode): string | undefined {
  let type: string | undefined;
  for (const key in node) {
    if (key !== "type" || typeof node.type !== "string") return undefined;
    type = node.type;
  }
  return type;
}

/** The same schema, also accepting null; `node` is a fresh node of this converter, changed in place. */
function nullable(node: SchemaNode): SchemaNode {
  if (typeof node.type === "string") {
    if (node.type === "null") return node;
    const leafType = onlyType(node);
    if (leafType !== undefined && STRICT_TYPES.has(leafType)) return nullableLeaf(leafType);
    node.type = nullableType(node.type);
    if (Array.isArray(node.enum)) node.enum = withNull(node.enum as unknown[]);
    return node;
  }
  const types = typesOf(node);
  if (types !== undefined) {
    if (types.includes("null")) return node;
    node.type = withNull(types);
    if (Array.isArray(node.enum)) node.enum = withNull(node.enum as unknown[]);
    return node;
  }
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf as unknown[];
    for (const branch of branches) if (isRecord(branch) && typesOf(branch)?.includes("null") === true) return node;
    node.anyOf = [...branches, { type: "null" }];
    return node;
  }
  return { anyOf: [node, { type: "null" }] };
}

/** The list with null added (once); a copy, sized up front, since the list may be the registry's frozen one. */
function withNull<T>(list: readonly T[]): (T | null)[] {
  if (list.includes(null as T)) return list as T[];
  const copy = new Array<T | null>(list.length + 1);
  for (let index = 0; index < list.length; index += 1) copy[index] = list[index] as T;
  copy[list.length] = null;
  return copy;
}
