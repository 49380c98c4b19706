import type { ToolSource } from "@mcp-tool-adapter/model-tools";

/**
 * Where the tools come from: a `ToolRegistry` (tools from any source, MCP or local), or anything
 * that holds one, such as an `MCPServerSet` (its `registry`). For a single `MCPToolAdapter`,
 * register it first: `await adapter.registerTools(registry, adapter.serverName)`.
 */
export type ToolSourceInput = ToolSource | { readonly registry: ToolSource };

export function resolveToolSource(input: ToolSourceInput): ToolSource {
  return "registry" in input ? input.registry : input;
}
