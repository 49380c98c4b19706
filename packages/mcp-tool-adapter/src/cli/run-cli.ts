import { createCliContext, type CliIO } from "./io.js";
import { EXIT_OK } from "./exit-codes.js";

/**
 * Runs the `mcp-tool-adapter` CLI in-process and resolves with its exit code; never calls
 * process.exit. `argv` are the user's arguments (without node and the script path).
 */
export async function runCli(argv: readonly string[], io: CliIO = {}): Promise<number> {
  // The argument parser is loaded here, not at the top, so importing the library does not load it.
  const { buildProgram, reportError } = await import("./program.js");
  const context = createCliContext(io);
  let exitCode = EXIT_OK;
  const program = buildProgram(context, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    return reportError(context, error);
  }
}
