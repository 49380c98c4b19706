import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type RegistryErrorCode =
  "INVALID_NAME" | "DUPLICATE_TOOL" | "INVALID_TOOL" | "INVALID_TOOLSET" | "UNKNOWN_TOOLSET";

/** A registration the registry refused; nothing was changed when one is thrown. */
export class RegistryError extends MCPToolAdapterError<RegistryErrorCode> {
  static override readonly errorName: string = "RegistryError";
}
