import { MCPToolAdapterError, type MCPToolAdapterErrorOptions } from "@mcp-tool-adapter/core";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";

export type LangChainBridgeErrorCode = "TOOL_CALL_FAILED";

/**
 * Thrown by a tool when `errors: "throw"` is chosen and its call failed, so that your own
 * handler (LangGraph's ToolNode `handleToolErrors`, a middleware) decides what the model sees.
 * `result` is the failed call's full result, `errorKind` its classification.
 */
export class LangChainToolCallError extends MCPToolAdapterError<LangChainBridgeErrorCode> {
  static override readonly errorName: string = "LangChainToolCallError";
  readonly result: ToolCallResult;
  readonly errorKind: string | undefined;

  constructor(toolName: string, modelText: string, result: ToolCallResult, options: MCPToolAdapterErrorOptions = {}) {
    super("TOOL_CALL_FAILED", `Tool "${toolName}" failed: ${modelText}`, options);
    this.result = result;
    this.errorKind = result.errorKind;
  }
}
