import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/**
 * The input schema of generated tool number `index`: a typical five-property object (string,
 * integer, string array, boolean, enum), distinct per index so no two tools share a compiled
 * schema (a cache keyed by content cannot make the work disappear).
 */
export function generatedInputSchema(index: number): Tool["inputSchema"] {
  return {
    type: "object",
    properties: {
      query: {
        type: "string",
        minLength: 1,
        maxLength: 200 + (index % 100),
        description: `Search text for tool ${index}`,
      },
      limit: { type: "integer", minimum: 1, maximum: 100 + index, default: 10 },
      tags: { type: "array", items: { type: "string", maxLength: 50 }, maxItems: 20 },
      verbose: { type: "boolean" },
      mode: { type: "string", enum: ["fast", "thorough", `mode_${index}`] },
    },
    required: ["query"],
    additionalProperties: false,
  };
}

/** A value the schemas above accept: the "typical five-property object" of the leaf bench. */
export const TYPICAL_ARGUMENTS: Readonly<Record<string, unknown>> = Object.freeze({
  query: "open issues assigned to me",
  limit: 25,
  tags: ["bug", "p1"],
  verbose: false,
  mode: "fast",
});

/** Names read like real tools (verbs the capability inference sees), numbered to be unique. */
const VERBS = ["get", "list", "search", "create", "update", "delete", "read", "write"] as const;

export function generatedTool(index: number): Tool {
  const verb = VERBS[index % VERBS.length]!;
  return {
    name: `${verb}_item_${index}`,
    description: `Generated tool ${index}: ${verb}s items in collection ${index % 50}.`,
    inputSchema: generatedInputSchema(index),
    ...(index % 4 === 0
      ? { annotations: { readOnlyHint: verb === "get" || verb === "list" || verb === "search" || verb === "read" } }
      : {}),
  };
}

export function generatedTools(count: number): Tool[] {
  return Array.from({ length: count }, (_, index) => generatedTool(index));
}
