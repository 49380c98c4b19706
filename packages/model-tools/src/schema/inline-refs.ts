import {
  asSchemaNode,
  isRecord,
  pointerSegment,
  SUBSCHEMA_KEYWORDS,
  SUBSCHEMA_LIST_KEYWORDS,
  SUBSCHEMA_MAP_KEYWORDS,
  type SchemaNode,
} from "./schema-keywords.js";

/** Expanded nodes at most: a chain of refs can double the schema at each level. */
const MAX_EXPANDED_NODES = 20_000;
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
]);

export interface InlinedSchema {
  readonly schema: SchemaNode;
  /** True when a recursive or runaway reference had to be cut: the result is wider than the original. */
  readonly widened: boolean;
  /** What was changed, one readable line each (empty for a schema without references). */
  readonly changes: readonly string[];
}

const NO_CHANGES: readonly string[] = Object.freeze([]);

/**
 * Replaces every local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer) with the
 * schema it points at and drops `$defs` / `definitions`. A reference met again inside its own
 * expansion (recursion) is cut there and becomes "any value", noted in `changes`.
 */
export function inlineRefs(root: SchemaNode): InlinedSchema {
  // Most tool schemas have no references: they are used as they are, without a copy.
  if (!hasReferences(root, 0)) return { schema: root, widened: false, changes: NO_CHANGES };
  return inlineFoundRefs(root);
}

/** Whether a schema has anything for `inlineRefs` to do: without, it is used as it is. */
export function needsInlining(root: SchemaNode): boolean {
  return hasReferences(root, 0);
}

/** `inlineRefs` for a schema known to have references. */
export function inlineFoundRefs(root: SchemaNode): InlinedSchema {
  const changes: string[] = [];
  let expanded = 0;
  let widened = false;
  const found = { definitions: false };

  const visit = (node: SchemaNode, path: string, stack: readonly string[]): SchemaNode => {
    expanded += 1;
    if (expanded > MAX_EXPANDED_NODES) {
      if (expanded === MAX_EXPANDED_NODES + 1)
        changes.push(
          `${path || "/"}: schema too large after expanding references (over ${MAX_EXPANDED_NODES} nodes); the rest is left open`,
        );
      widened = true;
      return {};
    }
    const ref = node.$ref;
    if (typeof ref === "string") {
      const { $ref: _ref, ...siblings } = node;
      let target: SchemaNode;
      if (stack.includes(ref)) {
        widened = true;
        changes.push(
          `${path || "/"}: recursive reference ${ref} cut after one level; any value is accepted there by the converted schema`,
        );
        target = { description: `(recursive: the same shape as ${ref})` };
      } else {
        const resolved = resolvePointer(root, ref);
        if (resolved === undefined) {
          widened = true;
          changes.push(
            `${path || "/"}: reference ${ref} could not be resolved (only local references are followed); any value is accepted there`,
          );
          target = {};
        } else {
          target = visit(asSchemaNode(resolved), path, [...stack, ref]);
        }
      }
      if (Object.keys(siblings).length === 0) return target;
      const rest = visitChildren(siblings, path, stack);
      // Annotations next to a $ref refine it; anything else must hold as well (2020-12 semantics).
      return Object.keys(rest).every((key) => ANNOTATIONS.has(key))
        ? { ...target, ...rest }
        : { allOf: [target, rest] };
    }
    return visitChildren(node, path, stack);
  };

  const visitChildren = (node: SchemaNode, path: string, stack: readonly string[]): SchemaNode => {
    const out: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$defs" || key === "definitions") {
        found.definitions = true;
        continue;
      }
      if (SUBSCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
        const map: SchemaNode = {};
        for (const [name, sub] of Object.entries(value))
          map[name] = visit(asSchemaNode(sub), `${path}/${key}/${pointerSegment(name)}`, stack);
        out[key] = map;
      } else if (SUBSCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
        out[key] = value.map((sub, index) => visit(asSchemaNode(sub), `${path}/${key}/${index}`, stack));
      } else if (SUBSCHEMA_KEYWORDS.has(key) && (isRecord(value) || typeof value === "boolean")) {
        out[key] = typeof value === "boolean" ? value : visit(value, `${path}/${key}`, stack);
      } else {
        out[key] = value;
      }
    }
    return out;
  };

  const schema = visit(root, "", []);
  if (found.definitions) changes.push("/: references inlined; $defs / definitions removed");
  return { schema, widened, changes };
}

function resolvePointer(root: SchemaNode, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  if (ref === "#" || ref === "#/") return root;
  if (!ref.startsWith("#/")) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** Whether `$ref`, `$defs` or `definitions` appear anywhere (in data too: a false "yes" only costs a copy). */
function hasReferences(value: object, depth: number): boolean {
  if (depth > 64) return true;
  if (Array.isArray(value)) {
    // A loop, not some(): V8 runs array callbacks slowly on the registry's frozen arrays. Only
    // objects are visited: most lists (enum, required, type) hold strings, one call each saved.
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      if (typeof item === "object" && item !== null && hasReferences(item, depth + 1)) return true;
    }
    return false;
  }
  // An ordinary object (the registry's snapshots are) has no inherited enumerable keys: for-in
  // alone lists its own, and skipping the own-property check per key halves this walk.
  const ordinary = Object.getPrototypeOf(value) === Object.prototype;
  for (const key in value) {
    if (!ordinary && !Object.hasOwn(value, key)) continue;
    if (key === "$ref" || key === "$defs" || key === "definitions") return true;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && hasReferences(item, depth + 1)) return true;
  }
  return false;
}
