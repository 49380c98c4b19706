import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type MCPServerSetErrorCode = "SERVER_NAME_INVALID" | "SERVER_TIMEOUT";

/** A failure the server set itself detects (the adapters report the rest with their own errors). */
export class MCPServerSetError extends MCPToolAdapterError<MCPServerSetErrorCode> {
  static override readonly errorName: string = "MCPServerSetError";
  readonly serverName: string;

  constructor(code: MCPServerSetErrorCode, message: string, details: { serverName: string; cause?: unknown }) {
    super(code, message, details);
    this.serverName = details.serverName;
  }
}
