import { asSchemaNode, isRecord, typesOf, type SchemaNode } from "./schema-keywords.js";

const MERGEABLE = new Set(["type", "properties", "required", "description", "title"]);

/**
 * Folds `allOf` into its node when every part is a plain object schema (properties, required,
 * type object) with distinct property names: the merge then means exactly what the allOf meant.
 * Returns undefined when it would not (other keywords, clashing properties, additionalProperties).
 */
export function mergeAllOf(node: SchemaNode): SchemaNode | undefined {
  const { allOf, ...own } = node;
  if (!Array.isArray(allOf)) return undefined;
  const parts = [own, ...allOf.map(asSchemaNode)];
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const descriptions: string[] = [];
  let title: unknown;
  for (const part of parts) {
    if (!Object.keys(part).every((key) => MERGEABLE.has(key))) return undefined;
    const types = typesOf(part);
    if (types !== undefined && !(types.length === 1 && types[0] === "object")) return undefined;
    if (part.properties !== undefined) {
      if (!isRecord(part.properties)) return undefined;
      for (const [name, schema] of Object.entries(part.properties)) {
        if (Object.hasOwn(properties, name)) return undefined;
        properties[name] = schema;
      }
    }
    if (Array.isArray(part.required))
      for (const name of part.required) if (typeof name === "string") required.add(name);
    if (typeof part.description === "string") descriptions.push(part.description);
    title ??= part.title;
  }
  return {
    type: "object",
    ...(title === undefined ? {} : { title }),
    ...(descriptions.length === 0 ? {} : { description: descriptions.join(" ") }),
    properties,
    ...(required.size === 0 ? {} : { required: [...required] }),
  };
}
