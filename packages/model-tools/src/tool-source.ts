import type { RegisteredTool, RegistryChange, ToolCallResult } from "@mcp-tool-adapter/registry";

/** Where model tools come from: a ToolRegistry fits as it is. */
export interface ToolSource {
  list(filter?: { namespace?: string }): readonly RegisteredTool[];
  call(name: string, args?: Record<string, unknown>, context?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  subscribe(listener: (change: RegistryChange) => void): () => void;
}

/**
 * What the bridges take as their tools: a `ToolRegistry` (tools from any source, MCP or local), or
 * anything that holds one, such as an `MCPServerSet` (its `registry`). For a single
 * `MCPToolAdapter`, register it first: `await adapter.registerTools(registry, adapter.serverName)`.
 */
export type ToolSourceInput = ToolSource | { readonly registry: ToolSource };

/** The ToolSource behind a {@link ToolSourceInput}. */
export function resolveToolSource(input: ToolSourceInput): ToolSource {
  return "registry" in input ? input.registry : input;
}
