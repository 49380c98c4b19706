const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type MCPServerSetErrorCode = "SERVER_NAME_INVALID" | "SERVER_TIMEOUT";

/** A failure the server set itself detects (the adapters report the rest with their own errors). */
export class MCPServerSetError extends Error {
  readonly code: MCPServerSetErrorCode;
  readonly serverName: string;
  readonly [ERROR_MARKER] = true;

  constructor(code: MCPServerSetErrorCode, message: string, details: { serverName: string; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "MCPServerSetError";
    this.code = code;
    this.serverName = details.serverName;
  }

  /** True for errors of this class from any copy of the package (a Symbol.for marker, not instanceof). */
  static isInstance(value: unknown): value is MCPServerSetError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[ERROR_MARKER] === true &&
      ["SERVER_NAME_INVALID", "SERVER_TIMEOUT"].includes((value as { code?: unknown }).code as string)
    );
  }
}
