import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type ModelToolsErrorCode = "UNKNOWN_TOOL" | "INVALID_OPTIONS" | "INVALID_SOURCE" | "SOURCE_NOT_READY";

/** A misuse of this package by the calling code (never a model's mistake: those become results). */
export class ModelToolsError extends MCPToolAdapterError<ModelToolsErrorCode> {
  static override readonly errorName: string = "ModelToolsError";
}
