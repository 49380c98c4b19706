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
const MAX_OBJECT_DEPTH = 10;
const MAX_PROPERTIES = 5_000;

export interface StrictAttempt {
  readonly schema: SchemaNode;
  /** Why the schema cannot be strict without changing its meaning; empty when it can. */
  readonly blockers: readonly string[];
}

/**
 * OpenAI strict function calling: every object lists all its properties in `required` (optional
 * ones become nullable) and has `additionalProperties: false`; unsupported constraints move into
 * the description. `root` must already be a plain object schema with references inlined.
 */
export function toOpenAIStrict(root: SchemaNode, changes: string[]): StrictAttempt {
  const context: StrictContext = { changes, blockers: [], propertyCount: 0 };
  const schema = convert(context, root, "", 0, true);
  if (context.propertyCount > MAX_PROPERTIES) context.blockers.push(`/: more than ${MAX_PROPERTIES} properties in all`);
  return { schema, blockers: context.blockers };
}

interface StrictContext {
  readonly changes: string[];
  readonly blockers: string[];
  propertyCount: number;
}

// A module-level function, not a closure per conversion: thousands of tools are converted at once.
function convert(
  context: StrictContext,
  node: SchemaNode,
  path: string,
  objectDepth: number,
  isRoot: boolean,
): SchemaNode {
  const { changes, blockers } = context;
  const at = path === "" ? "/" : path;
  let work = node;
  if (Array.isArray(node.allOf)) {
    const merged = mergeAllOf(node);
    if (merged === undefined) blockers.push(`${at}: allOf that is not a merge of plain objects`);
    else {
      changes.push(`${at}: allOf of object schemas merged into one object`);
      work = merged;
    }
  }
  const out: SchemaNode = {};
  const notes: string[] = [];
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(work)) {
    if (KEPT.has(key)) out[key] = value;
    else if (key === "format") {
      if (typeof value === "string" && STRICT_FORMATS.has(value)) out.format = value;
      else notes.push(`format: ${compactJson(value)}`);
    } else if (key === "exclusiveMinimum" || key === "exclusiveMaximum") {
      if (typeof value === "number") out[key] = value;
      else notes.push(`${key}: ${compactJson(value)}`);
    } else if (DESCRIBED.has(key)) notes.push(`${key}: ${compactJson(value)}`);
    else if (BLOCKING.has(key)) blockers.push(`${at}: ${key} is not supported`);
    else if (key === "unevaluatedProperties") {
      if (value !== false) blockers.push(`${at}: unevaluatedProperties is not supported`);
    } else if (METADATA_KEYWORDS.has(key) || SILENT.has(key)) dropped.push(key);
    else if (!["properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf"].includes(key))
      dropped.push(key);
  }
  if (dropped.length > 0) changes.push(`${at}: ${dropped.join(", ")} removed`);

  let types = typesOf(work);
  if (work.nullable === true && types !== undefined && !types.includes("null")) {
    types = [...types, "null"];
    out.type = types;
  }
  for (const type of types ?? [])
    if (!STRICT_TYPES.has(type)) blockers.push(`${at}: type ${compactJson(type)} is not supported`);

  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = work[key];
    if (!Array.isArray(branches)) continue;
    if (isRoot) blockers.push(`/: ${key} at the top level is not supported`);
    if (key === "oneOf")
      changes.push(
        `${at}: oneOf turned into anyOf (a value matching several branches is then refused by the tool's own validation)`,
      );
    const converted = branches.map((branch, index) =>
      convert(context, asSchemaNode(branch), `${path}/${key}/${index}`, objectDepth, false),
    );
    out.anyOf = [...((out.anyOf as SchemaNode[] | undefined) ?? []), ...converted];
  }
  if (types === undefined && out.anyOf === undefined && out.enum === undefined && !("const" in out)) {
    blockers.push(`${at}: a value of any type is not supported (the schema names no type)`);
  }

  const isObject = types?.includes("object") === true || (types === undefined && isRecord(work.properties));
  if (isObject) {
    if (types === undefined) out.type = "object";
    if (objectDepth >= MAX_OBJECT_DEPTH) blockers.push(`${at}: objects nested deeper than ${MAX_OBJECT_DEPTH} levels`);
    const properties = isRecord(work.properties) ? work.properties : {};
    const names = Object.keys(properties);
    context.propertyCount += names.length;
    const extra = work.additionalProperties;
    if (isRecord(extra)) blockers.push(`${at}: typed additional properties (a map) are not supported`);
    else if (names.length === 0 && !isRoot && extra !== false) blockers.push(`${at}: an object with free-form keys`);
    const required = new Set(
      Array.isArray(work.required) ? work.required.filter((name): name is string => typeof name === "string") : [],
    );
    for (const name of required)
      if (!names.includes(name)) blockers.push(`${at}: required property ${compactJson(name)} has no schema`);
    const convertedProperties: SchemaNode = {};
    const optional: string[] = [];
    for (const name of names) {
      let converted = convert(
        context,
        asSchemaNode(properties[name]),
        `${path}/properties/${pointerSegment(name)}`,
        objectDepth + 1,
        false,
      );
      if (!required.has(name)) {
        converted = nullable(converted);
        optional.push(name);
      }
      defineKey(convertedProperties, name, converted);
    }
    out.properties = convertedProperties;
    out.required = names;
    out.additionalProperties = false;
    if (optional.length > 0)
      changes.push(
        `${at}: optional ${optional.map((name) => compactJson(name)).join(", ")} made required and nullable (null means "not given")`,
      );
    if (extra !== false && names.length > 0) changes.push(`${at}: additionalProperties set to false`);
  }

  if (types?.includes("array") === true) {
    const items = work.items;
    if (isRecord(items)) out.items = convert(context, items, `${path}/items`, objectDepth, false);
    else if (Array.isArray(items)) blockers.push(`${at}: tuple items are not supported`);
    else blockers.push(`${at}: an array of items of any type`);
  }

  const description = describeWithNotes(out.description, notes);
  if (description !== undefined) out.description = description;
  if (notes.length > 0)
    changes.push(`${at}: ${notes.map((note) => note.split(":")[0]).join(", ")} moved into the description`);
  return out;
}

/** The same schema, also accepting null. */
function nullable(node: SchemaNode): SchemaNode {
  const types = typesOf(node);
  if (types !== undefined) {
    if (types.includes("null")) return node;
    const enumValues =
      Array.isArray(node.enum) && !node.enum.includes(null) ? { enum: [...(node.enum as unknown[]), null] } : {};
    return { ...node, type: [...types, "null"], ...enumValues };
  }
  if (Array.isArray(node.anyOf)) {
    return node.anyOf.some((branch) => isRecord(branch) && typesOf(branch)?.includes("null") === true)
      ? node
      : { ...node, anyOf: [...(node.anyOf as unknown[]), { type: "null" }] };
  }
  return { anyOf: [node, { type: "null" }] };
}

/** Plain assignment, except for "__proto__", which must stay an own property (a property may be named so). */
function defineKey(target: SchemaNode, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
