import type { RegisteredTool, RegistryChange, ToolCallResult } from "@mcp-tool-adapter/registry";

/** Where model tools come from: a ToolRegistry fits as it is. */
export interface ToolSource {
  list(filter?: { namespace?: string }): readonly RegisteredTool[];
  call(name: string, args?: Record<string, unknown>, context?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  subscribe(listener: (change: RegistryChange) => void): () => void;
}
