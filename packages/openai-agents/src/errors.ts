import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type OpenAIAgentsBridgeErrorCode = "NAME_COLLISION";

/** Thrown while converting, when two tools would reach the Agents SDK under one name. */
export class OpenAIAgentsBridgeError extends MCPToolAdapterError<OpenAIAgentsBridgeErrorCode> {
  static override readonly errorName: string = "OpenAIAgentsBridgeError";
}
