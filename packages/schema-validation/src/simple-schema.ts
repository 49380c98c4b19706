/** A JSON type name a simple schema may declare (one, never a list). */
export type SimpleType = "string" | "number" | "integer" | "boolean" | "null" | "array" | "object";

/**
 * The subset of JSON Schema most MCP tool schemas use. Checking a value against it needs no
 * generated code, so such schemas skip ajv's code generation (the bulk of compile time).
 */
export interface SimpleSchema {
  type?: SimpleType;
  enum?: readonly (string | number | boolean | null)[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: SimpleSchema;
  required?: readonly string[];
  properties?: Readonly<Record<string, SimpleSchema>>;
  additionalProperties?: boolean;
}

const SIMPLE_TYPES = new Set<unknown>(["string", "number", "integer", "boolean", "null", "array", "object"]);

const isFiniteNumber = (value: unknown): boolean => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown): boolean => typeof value === "number" && Number.isInteger(value) && value >= 0;
const isString = (value: unknown): boolean => typeof value === "string";

/**
 * Each allowed keyword with a check that its value is one every supported meta-schema accepts.
 * A keyword outside this table, or a value its check refuses, sends the schema to ajv, which
 * then reports exactly what it always reported; the fast path never has to word a schema error.
 */
const KEYWORD_CHECKS: Readonly<Record<string, (value: unknown) => boolean>> = {
  type: (value) => SIMPLE_TYPES.has(value),
  enum: isPrimitiveSet,
  minimum: isFiniteNumber,
  maximum: isFiniteNumber,
  exclusiveMinimum: isFiniteNumber,
  exclusiveMaximum: isFiniteNumber,
  minLength: isCount,
  maxLength: isCount,
  minItems: isCount,
  maxItems: isCount,
  items: isSimpleSubschema,
  required: isStringSet,
  properties: isPropertyMap,
  additionalProperties: (value) => typeof value === "boolean",
  title: isString,
  description: isString,
  // The meta-schemas accept any default; ajv ignores it unless told to apply defaults (it is not).
  default: () => true,
};

/**
 * True when the schema uses only the keywords above, each with a valid value. `$schema` is
 * allowed at the root only, where the caller has already resolved it to a supported dialect.
 */
export function isSimpleSchema(schema: Readonly<Record<string, unknown>>): boolean {
  return hasOnlySimpleKeywords(schema, true);
}

function isSimpleSubschema(value: unknown): boolean {
  return isPlainObject(value) && hasOnlySimpleKeywords(value, false);
}

function hasOnlySimpleKeywords(schema: Readonly<Record<string, unknown>>, isRoot: boolean): boolean {
  for (const keyword of Object.keys(schema)) {
    if (isRoot && keyword === "$schema") continue;
    const check = Object.hasOwn(KEYWORD_CHECKS, keyword) ? KEYWORD_CHECKS[keyword] : undefined;
    if (check === undefined || !check(schema[keyword])) return false;
  }
  return true;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isPropertyMap(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  // ajv skips a property named "__proto__"; such schemas stay on its path.
  return Object.keys(value).every((name) => name !== "__proto__" && isSimpleSubschema(value[name]));
}

function isStringSet(value: unknown): boolean {
  return Array.isArray(value) && value.every(isString) && new Set(value).size === value.length;
}

/** Non-empty and duplicate-free, as draft-06 requires; ajv refuses an empty enum outright. */
function isPrimitiveSet(value: unknown): boolean {
  if (!Array.isArray(value) || value.length === 0) return false;
  const primitive = value.every(
    (v) => v === null || typeof v === "string" || typeof v === "boolean" || isFiniteNumber(v),
  );
  return primitive && new Set(value).size === value.length;
}
