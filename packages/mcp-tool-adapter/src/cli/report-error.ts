import { describeCause } from "@mcp-tool-adapter/core";
import { MCPConfigFileError } from "../config-file/errors.js";
import { MCPToolLockError } from "../policy/lock-file.js";
import { EXIT_FAILURE, EXIT_USAGE } from "./exit-codes.js";
import type { CliContext } from "./io.js";
import { CliUsageError } from "./usage-error.js";

/**
 * Prints what a command threw the way the CLI reports it and returns the exit code for it: 2 for
 * bad usage, a config or lock file at fault, 1 for the rest. (Commander's own errors are
 * program.ts's to report.)
 */
export function reportCommandError(context: CliContext, error: unknown): number {
  if (CliUsageError.isInstance(error) || MCPConfigFileError.isInstance(error) || MCPToolLockError.isInstance(error)) {
    context.err(context.colors.red(`error: ${error.message}`));
    return EXIT_USAGE;
  }
  context.err(context.colors.red(`error: ${describeCause(error)}`));
  return EXIT_FAILURE;
}
