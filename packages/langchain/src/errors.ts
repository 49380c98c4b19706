import type { ToolCallResult } from "@mcp-tool-adapter/registry";

const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type LangChainBridgeErrorCode = "TOOL_CALL_FAILED";

/**
 * Thrown by a tool when `errors: "throw"` is chosen and its call failed, so that your own
 * handler (LangGraph's ToolNode `handleToolErrors`, a middleware) decides what the model sees.
 * `result` is the failed call's full result, `errorKind` its classification.
 */
export class LangChainToolCallError extends Error {
  readonly code: LangChainBridgeErrorCode = "TOOL_CALL_FAILED";
  readonly [ERROR_MARKER] = true;
  readonly result: ToolCallResult;
  readonly errorKind: string | undefined;

  constructor(toolName: string, modelText: string, result: ToolCallResult) {
    super(`Tool "${toolName}" failed: ${modelText}`);
    this.name = "LangChainToolCallError";
    this.result = result;
    this.errorKind = result.errorKind;
  }

  static isInstance(value: unknown): value is LangChainToolCallError {
    return typeof value === "object" && value !== null && (value as { [ERROR_MARKER]?: unknown })[ERROR_MARKER] === true && (value as { code?: unknown }).code === "TOOL_CALL_FAILED";
  }
}
