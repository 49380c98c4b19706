import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type ToolSearchErrorCode = "INVALID_OPTIONS" | "NAME_COLLISION" | "EMBEDDING_FAILED";

/** Tool search was set up wrongly (a bad option, a meta-tool name a real tool has) or an `embed` function failed. */
export class ToolSearchError extends MCPToolAdapterError<ToolSearchErrorCode> {
  static override readonly errorName: string = "ToolSearchError";
}
