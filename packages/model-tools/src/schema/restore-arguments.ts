import { requiredNames } from "./node-conversion.js";
import { acceptsNull, asSchemaNode, isRecord, type SchemaNode } from "./schema-keywords.js";

/** Where, in a tool's arguments, a model's `null` means "not given". Built once per schema. */
interface RestoreShape {
  /** Optional properties that do not accept null: a null from the model is dropped. */
  readonly dropNull?: ReadonlySet<string>;
  readonly properties?: ReadonlyMap<string, RestoreShape>;
  readonly items?: RestoreShape;
}

export type ArgumentRestorer = (args: Record<string, unknown>) => Record<string, unknown>;

const identity: ArgumentRestorer = (args) => args;

/**
 * A function that turns a model's arguments back into the tool's real shape: a `null` for an
 * optional property whose schema does not accept null becomes absent (strict schemas make the
 * model send one; other models send them too). Nothing else changes; the real schema's
 * validation runs afterwards. For a schema with nothing to restore it returns its input as is.
 */
export function createArgumentRestorer(inlinedSchema: SchemaNode): ArgumentRestorer {
  const shape = shapeOf(inlinedSchema, 0);
  if (shape === undefined) return identity;
  return (args) => (needsRestore(args, shape, 0) ? (restore(args, shape) as Record<string, unknown>) : args);
}

const MAX_DEPTH = 32;

function shapeOf(node: SchemaNode, depth: number): RestoreShape | undefined {
  if (depth > MAX_DEPTH) return undefined;
  let dropNull: Set<string> | undefined;
  let properties: Map<string, RestoreShape> | undefined;
  if (isRecord(node.properties)) {
    const required = new Set(requiredNames(node.required));
    const schemas = node.properties;
    for (const name in schemas) {
      if (!Object.hasOwn(schemas, name)) continue;
      const property = asSchemaNode(schemas[name]);
      if (!required.has(name) && !acceptsNull(property)) (dropNull ??= new Set()).add(name);
      const child = shapeOf(property, depth + 1);
      if (child !== undefined) (properties ??= new Map()).set(name, child);
    }
  }
  const items = isRecord(node.items) ? shapeOf(node.items, depth + 1) : undefined;
  if (dropNull === undefined && properties === undefined && items === undefined) return undefined;
  return { ...(dropNull && { dropNull }), ...(properties && { properties }), ...(items && { items }) };
}

/** Whether anything would change: most answers carry no null to drop, and then nothing is copied. */
function needsRestore(value: unknown, shape: RestoreShape, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    const items = shape.items;
    return items !== undefined && value.some((item) => needsRestore(item, items, depth + 1));
  }
  if (!isRecord(value)) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = value[key];
    if (item === null && shape.dropNull?.has(key) === true) return true;
    const child = shape.properties?.get(key);
    if (child !== undefined && typeof item === "object" && item !== null && needsRestore(item, child, depth + 1))
      return true;
  }
  return false;
}

function restore(value: unknown, shape: RestoreShape): unknown {
  if (Array.isArray(value)) {
    const items = shape.items;
    return items === undefined ? value : value.map((item) => restore(item, items));
  }
  if (!isRecord(value) || (shape.dropNull === undefined && shape.properties === undefined)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null && shape.dropNull?.has(key) === true) continue;
    const child = shape.properties?.get(key);
    const restored = child === undefined ? item : restore(item, child);
    // A "__proto__" key must stay an own property, never become the prototype.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: restored, enumerable: true, writable: true, configurable: true });
    else out[key] = restored;
  }
  return out;
}
