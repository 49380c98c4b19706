import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

/** A bad command line (malformed --args, a target without "/", ...): exit code 2, message to stderr. */
export class CliUsageError extends MCPToolAdapterError<"CLI_USAGE"> {
  static override readonly errorName: string = "CliUsageError";

  constructor(message: string, options?: { cause?: unknown }) {
    super("CLI_USAGE", message, options);
  }
}
