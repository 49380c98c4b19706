const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

/** A bad command line (malformed --args, a target without "/", ...): exit code 2, message to stderr. */
export class CliUsageError extends Error {
  readonly code = "CLI_USAGE" as const;
  readonly [ERROR_MARKER] = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CliUsageError";
  }

  static isInstance(value: unknown): value is CliUsageError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[ERROR_MARKER] === true && (value as { code?: unknown }).code === "CLI_USAGE";
  }
}
