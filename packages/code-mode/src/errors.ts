import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type CodeModeErrorCode = "INVALID_OPTIONS";

/** A misuse of this package by the calling code; a program's failure is a run result, never this. */
export class CodeModeError extends MCPToolAdapterError<CodeModeErrorCode> {
  static override readonly errorName: string = "CodeModeError";
}
