/** One problem of a value against a schema: where (a JSON pointer), which keyword, and TypeBox's words for it. */
export interface SchemaIssue {
  readonly path: string;
  readonly keyword: string;
  readonly message: string;
  /** For `additionalProperties`: the unknown fields, all of them. */
  readonly unknownFields?: readonly string[];
}

/**
 * The JSON Schema keywords the config file's schemas use, as this walk reads them (a test holds the
 * generated schema to these keywords): the schemas are TypeBox's, checked here as plain JSON so
 * that reading a config file never loads TypeBox.
 */
export interface SchemaNode {
  type?: string;
  const?: unknown;
  enum?: readonly unknown[];
  anyOf?: readonly SchemaNode[];
  properties?: Readonly<Record<string, SchemaNode>>;
  patternProperties?: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: SchemaNode;
  minimum?: number;
  maximum?: number;
  minLength?: number;
}

/** Every keyword SchemaNode reads; a schema using another one would be checked incompletely. */
export const SCHEMA_NODE_KEYWORDS: readonly (keyof SchemaNode)[] = [
  "type",
  "const",
  "enum",
  "anyOf",
  "properties",
  "patternProperties",
  "required",
  "additionalProperties",
  "items",
  "minimum",
  "maximum",
  "minLength",
];

/**
 * Every problem of `value` against `schema`, one message per problem. TypeBox's `Errors` reports a
 * union's every branch (`recovery: {...}` got "must be boolean" beside the object's real problems)
 * and stops at eight errors (nine unknown fields left only that "must be boolean"). Here a union
 * is checked against the one branch the value's shape selects (its JSON type, then, among objects,
 * its `type` field), an object's unknown fields are named together, and nothing is capped. A leaf's
 * problem is worded as TypeBox words it ("must be >= 1"; a test compares the two).
 */
export function findSchemaIssues(node: SchemaNode, value: unknown, path = ""): SchemaIssue[] {
  if (node.anyOf !== undefined) return findUnionIssues(node.anyOf, value, path);
  if (node.type === "object" && isPlainObject(value)) return findObjectIssues(node, value, path);
  if (node.type === "array" && Array.isArray(value) && node.items !== undefined) {
    const items = node.items;
    return value.flatMap((item, index) => findSchemaIssues(items, item, `${path}/${index}`));
  }
  return findLeafIssues(node, value, path);
}

/**
 * A leaf, or a value of the wrong JSON type: each keyword checked on its own, as JSON Schema
 * does (an integer keyword's bounds still apply to 0.5), in TypeBox's order and words.
 */
export function findLeafIssues(node: SchemaNode, value: unknown, path = ""): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const add = (keyword: string, message: string) => issues.push({ path, keyword, message });
  if (node.type !== undefined && !hasJsonType(node.type, value)) add("type", `must be ${node.type}`);
  if (node.const !== undefined && value !== node.const) add("const", "must be equal to constant");
  if (node.enum !== undefined && !node.enum.includes(value)) add("enum", "must be equal to one of the allowed values");
  if (typeof value === "number") {
    if (node.maximum !== undefined && !(value <= node.maximum)) add("maximum", `must be <= ${node.maximum}`);
    if (node.minimum !== undefined && !(value >= node.minimum)) add("minimum", `must be >= ${node.minimum}`);
  }
  if (typeof value === "string" && node.minLength !== undefined && codePointLength(value) < node.minLength)
    add("minLength", `must not have fewer than ${node.minLength} characters`);
  return issues;
}

/** JSON Schema counts a string's characters as code points, not UTF-16 units. */
function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

function hasJsonType(type: string, value: unknown): boolean {
  switch (type) {
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "null":
      return value === null;
    default:
      return jsonKind(value) === type;
  }
}

function findUnionIssues(branches: readonly SchemaNode[], value: unknown, path: string): SchemaIssue[] {
  const kind = jsonKind(value);
  const sameKind = branches.filter((branch) => branchKinds(branch).includes(kind));
  if (sameKind.length === 0) {
    const kinds = [...new Set(branches.flatMap(branchKinds))];
    return [{ path, keyword: "anyOf", message: `must be ${kinds.map(withArticle).join(" or ")}` }];
  }
  const [first] = sameKind;
  if (first !== undefined && (sameKind.length === 1 || kind !== "object")) return findSchemaIssues(first, value, path);
  // Several object shapes: the `type` field says which one is meant.
  const tags = sameKind.map((branch) => branch.properties?.type?.const);
  const tag = (value as Record<string, unknown>).type;
  const chosen = sameKind[tags.indexOf(tag)];
  if (chosen !== undefined) return findSchemaIssues(chosen, value, path);
  return [
    {
      path: `${path}/type`,
      keyword: "const",
      message: `must be one of ${tags.map((name) => JSON.stringify(name)).join(", ")}`,
    },
  ];
}

function findObjectIssues(node: SchemaNode, value: Record<string, unknown>, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const missing = (node.required ?? []).filter((name) => value[name] === undefined);
  if (missing.length > 0)
    issues.push({ path, keyword: "required", message: `must have required properties ${missing.join(", ")}` });
  const unknownFields: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    const declared = Object.hasOwn(node.properties ?? {}, key) ? node.properties?.[key] : undefined;
    const patterned = Object.entries(node.patternProperties ?? {}).find(([pattern]) =>
      new RegExp(pattern, "u").test(key),
    )?.[1];
    const fieldSchema = declared ?? patterned;
    if (fieldSchema !== undefined) {
      // An optional field left undefined is absent, as in TypeBox.
      if (field !== undefined) issues.push(...findSchemaIssues(fieldSchema, field, fieldPath));
    } else if (node.additionalProperties === false) {
      unknownFields.push(key);
    }
  }
  if (unknownFields.length > 0)
    issues.push({
      path,
      keyword: "additionalProperties",
      message: `must not have additional properties ${unknownFields.join(", ")}`,
      unknownFields,
    });
  return issues;
}

type JsonKind = "null" | "boolean" | "number" | "string" | "array" | "object";

function jsonKind(value: unknown): JsonKind {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  if (type === "boolean" || type === "number" || type === "string") return type;
  return "object";
}

/** The JSON types a branch accepts (integer counts as number: the branch's own check says "must be integer"). */
function branchKinds(branch: SchemaNode): JsonKind[] {
  if (branch.type !== undefined) return [branch.type === "integer" ? "number" : (branch.type as JsonKind)];
  const values = branch.const !== undefined ? [branch.const] : (branch.enum ?? []);
  if (values.length > 0) return [...new Set(values.map(jsonKind))];
  if (branch.anyOf !== undefined) return branch.anyOf.flatMap(branchKinds);
  return ["null", "boolean", "number", "string", "array", "object"];
}

function withArticle(kind: JsonKind): string {
  return kind === "array" || kind === "object" ? `an ${kind}` : `a ${kind}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
