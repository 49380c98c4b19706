import type { PrestartedServer } from "./early-server.js";
import { createCliContext, type CliContext, type CliIO } from "./io.js";
import { callCommandOptions } from "./command-flags.js";
import { EXIT_OK } from "./exit-codes.js";
import { scanCallArgv, type FastCallArgv } from "./fast-call-argv.js";

/**
 * Runs the `mcp-tool-adapter` CLI in-process and resolves with its exit code; never calls
 * process.exit. `argv` are the user's arguments (without node and the script path).
 */
export function runCli(argv: readonly string[], io: CliIO = {}): Promise<number> {
  return runCliIn(argv, createCliContext(io));
}

/** `runCli` for the bin, with the server its fast path spawned (if any): `call` takes it over, else it is stopped. */
export async function runCliWithPrestarted(
  argv: readonly string[],
  prestarted: PrestartedServer | undefined,
): Promise<number> {
  const context = createCliContext({});
  try {
    return await runCliIn(argv, prestarted === undefined ? context : { ...context, prestarted });
  } finally {
    await prestarted?.release();
  }
}

async function runCliIn(argv: readonly string[], context: CliContext): Promise<number> {
  // A `call` line the exact scan reads whole (known flags, values commander would accept) runs
  // without building the commander program: loading and building it was about a fifth of the
  // CPU `call` spent after spawning its server. Anything else goes through commander.
  const call = scanCallArgv(argv);
  if (call !== undefined) return runScannedCall(context, call);
  // The argument parser is loaded here, not at the top, so importing the library does not load it.
  const { buildProgram, reportError } = await import("./program.js");
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

async function runScannedCall(context: CliContext, call: FastCallArgv): Promise<number> {
  const { runCallCommand } = await import("./commands/call.js");
  try {
    return await runCallCommand(context, callCommandOptions(call.target, call.flags));
  } catch (error) {
    // Loaded for a failure only: two modules fewer for the call that succeeds.
    const { reportCommandError } = await import("./report-error.js");
    return reportCommandError(context, error);
  }
}
