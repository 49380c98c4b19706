/**
 * How deep `$ref` chains and nested objects are followed; past it a schema counts as accepting
 * null (nothing is removed), so a cyclic or absurd schema cannot loop.
 */
const MAX_FOLLOW_DEPTH = 32;

type Schema = Record<string, unknown>;

/**
 * The arguments without the `null`s a model sent for optional properties. Models often send
 * `null` for a parameter they mean to leave out; a schema that does not accept `null` there
 * would refuse the whole call. The rule: a property that is not `required` and whose schema
 * certainly refuses `null` is removed when its value is `null`. A required property keeps its
 * `null` (validation then reports it), and so does one whose schema accepts `null` or cannot be
 * told (an unresolvable `$ref`, `not`, an undeclared property).
 *
 * Objects nested under declared `properties` and array `items` (through local `$ref`s) are
 * cleaned by the same rule; the branches of `anyOf` / `oneOf` / `allOf` are not entered. Arguments
 * that were valid never change (a removed `null` was invalid where it stood). Returns `args`
 * itself when nothing is removed, otherwise a copy: the input is never modified.
 */
export function omitNullOptionals(schema: unknown, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return cleanObject(schema, schema, args, 0);
}

function cleanObject(
  root: unknown,
  schema: unknown,
  value: Readonly<Record<string, unknown>>,
  depth: number,
): Record<string, unknown> {
  // Most arguments hold no null and no object: then the schema is not even looked at.
  if (!holdsNullOrObject(value)) return value;
  const objectSchema = declaring("properties", root, schema, depth);
  if (objectSchema === undefined) return value;
  const properties = objectSchema.properties as Schema;
  const required = Array.isArray(objectSchema.required) ? (objectSchema.required as unknown[]) : [];
  let cleaned: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item !== null && typeof item !== "object") continue;
    if (!Object.hasOwn(properties, key)) continue;
    const propertySchema = properties[key];
    if (item === null) {
      if (required.includes(key) || acceptsNull(root, propertySchema, depth)) continue;
      cleaned ??= { ...value };
      Reflect.deleteProperty(cleaned, key);
      continue;
    }
    const inner = cleanValue(root, propertySchema, item, depth + 1);
    if (inner === item) continue;
    cleaned ??= { ...value };
    setOwn(cleaned, key, inner);
  }
  return cleaned ?? value;
}

function holdsNullOrObject(value: Readonly<Record<string, unknown>>): boolean {
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    if (item === null || typeof item === "object") return true;
  }
  return false;
}

/** An object or array value cleaned under its schema: objects by the rule, arrays item by item under `items`. */
function cleanValue(root: unknown, schema: unknown, value: object, depth: number): unknown {
  if (depth >= MAX_FOLLOW_DEPTH) return value;
  if (!Array.isArray(value)) return cleanObject(root, schema, value as Record<string, unknown>, depth);
  const itemSchema = declaring("items", root, schema, depth)?.items;
  if (!isSchemaObject(itemSchema)) return value;
  let cleaned: unknown[] | undefined;
  value.forEach((item: unknown, index) => {
    if (typeof item !== "object" || item === null) return;
    const inner = cleanValue(root, itemSchema, item, depth + 1);
    if (inner === item) return;
    cleaned ??= [...(value as unknown[])];
    cleaned[index] = inner;
  });
  return cleaned ?? value;
}

/** The schema that declares `keyword` (an object) for a value, following local `$ref`s; undefined when there is none. */
function declaring(keyword: "properties" | "items", root: unknown, schema: unknown, depth: number): Schema | undefined {
  for (let step = depth; step < MAX_FOLLOW_DEPTH; step += 1) {
    if (!isSchemaObject(schema)) return undefined;
    if (isSchemaObject(schema[keyword])) return schema;
    if (typeof schema.$ref !== "string") return undefined;
    schema = resolveLocalRef(root, schema.$ref);
  }
  return undefined;
}

/** Sets an own property: assigning to a "__proto__" key would replace the prototype instead. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** False only when `schema` certainly refuses `null`; true when it accepts it or that cannot be told. */
function acceptsNull(root: unknown, schema: unknown, depth: number): boolean {
  if (schema === false) return false;
  if (!isSchemaObject(schema) || depth >= MAX_FOLLOW_DEPTH) return true;
  if (schema.nullable === true) return true; // OpenAPI 3.0's way of saying it
  const { type } = schema;
  if (typeof type === "string" && type !== "null") return false;
  if (Array.isArray(type) && !type.includes("null")) return false;
  if ("const" in schema && schema.const !== null) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) return false;
  if (typeof schema.$ref === "string") {
    const target = resolveLocalRef(root, schema.$ref);
    if (target !== undefined && !acceptsNull(root, target, depth + 1)) return false;
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const branches = schema[keyword];
    if (
      Array.isArray(branches) &&
      branches.length > 0 &&
      !branches.some((branch) => acceptsNull(root, branch, depth + 1))
    )
      return false;
  }
  const all = schema.allOf;
  if (Array.isArray(all) && !all.every((branch) => acceptsNull(root, branch, depth + 1))) return false;
  return true;
}

/** The schema a `#...` JSON Pointer names inside `root`; undefined for another document or a missing target. */
function resolveLocalRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const token = pointerToken(raw);
    if (token === undefined) return undefined;
    if (!isSchemaObject(target) || !Object.hasOwn(target, token)) return undefined;
    target = target[token];
  }
  return target;
}

/** One JSON Pointer token of a URI fragment, unescaped; undefined when its percent-encoding is malformed. */
function pointerToken(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
  } catch {
    return undefined;
  }
}

function isSchemaObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
