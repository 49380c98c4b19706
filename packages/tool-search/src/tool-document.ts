import type { RegisteredTool } from "@mcp-tool-adapter/registry";

/** The fields of a tool that search reads, each with its own weight. */
export const TOOL_SEARCH_FIELDS = ["name", "title", "namespace", "description", "parameters"] as const;
export type ToolSearchField = (typeof TOOL_SEARCH_FIELDS)[number];

/** Default weights: a word of the name says most about what a tool does, a parameter's words least. */
export const DEFAULT_FIELD_BOOST: Readonly<Record<ToolSearchField, number>> = {
  name: 3,
  title: 2,
  namespace: 1.5,
  description: 1,
  parameters: 0.5,
};

export interface ToolDocument extends Record<ToolSearchField, string> {
  /** The registry name, `namespace/tool`. */
  readonly id: string;
}

/** One tool as the text the index reads. */
export function toToolDocument(tool: RegisteredTool): ToolDocument {
  const original = tool.sourceMetadata.originalName;
  const title = tool.sourceMetadata.title;
  return {
    id: tool.name,
    name:
      typeof original === "string" && original !== tool.localName ? `${tool.localName} ${original}` : tool.localName,
    title: typeof title === "string" ? title : "",
    namespace: tool.namespace,
    description: tool.description,
    parameters: parameterText(tool.inputSchema),
  };
}

/** Property names and descriptions of the input schema, one level of nesting deep (enough for what a tool takes). */
function parameterText(schema: Record<string, unknown>, depth = 0): string {
  const properties = schema.properties;
  if (typeof properties !== "object" || properties === null) return "";
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    parts.push(name);
    if (typeof property !== "object" || property === null) continue;
    const { description } = property as { description?: unknown };
    if (typeof description === "string") parts.push(description);
    if (depth === 0) {
      const nested = parameterText(property as Record<string, unknown>, 1);
      if (nested !== "") parts.push(nested);
      const items = (property as { items?: unknown }).items;
      if (typeof items === "object" && items !== null) parts.push(parameterText(items as Record<string, unknown>, 1));
    }
  }
  return parts.join(" ");
}
