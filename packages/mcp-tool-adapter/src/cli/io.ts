import type { MCPEngine } from "@mcp-tool-adapter/adapter";
import type { ServerSetAdapterFactory } from "../server-set/types.js";
import { cliColors, type CliColors } from "./colors.js";
import type { PrestartedServer } from "./early-server.js";
import type { Engine2026Loader } from "./engine-2026-loader.js";

/** Where the CLI writes: process.stdout / process.stderr, or any collector in tests. */
export interface CliWritable {
  write(chunk: string): unknown;
  /** Terminal width, when the stream is a terminal. */
  columns?: number;
  isTTY?: boolean;
}

/** Everything the CLI touches outside itself, so it runs in-process in tests. */
export interface CliIO {
  stdout?: CliWritable;
  stderr?: CliWritable;
  /** Expands `${VAR}` in config files and decides NO_COLOR / FORCE_COLOR. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Base for relative --config / --args-file paths. Default: process.cwd(). */
  cwd?: string;
  /** Output goes to a terminal: colour, a spinner, descriptions cut to the terminal width. Default: stdout.isTTY. */
  isTTY?: boolean;
  /** Terminal width for truncation. Default: stdout.columns, else 80. */
  columns?: number;
  /** Builds each server's adapter (tests use in-process servers). Default: MCPToolAdapter with default transports. */
  adapterFactory?: ServerSetAdapterFactory;
  /**
   * The engine every server's adapter speaks through (e.g. `createEngine2026()`). Default: the
   * adapter's SDK 1.x engine, and `@mcp-tool-adapter/engine-2026` (when installed) for entries with
   * `protocol: "2026-07-28"` and `auto` entries over streamable HTTP.
   */
  engine?: MCPEngine;
  /** Finds and loads `@mcp-tool-adapter/engine-2026` when an entry wants it. Default: import it if installed. */
  loadEngine2026?: Engine2026Loader;
  /** Monotonic clock for reported timings. Default: performance.now. */
  now?: () => number;
  /** Someone can answer questions on stdin (a server's elicitation). Default: process.stdin.isTTY. */
  stdinIsTTY?: boolean;
  /** Shows `login`'s authorization URL (tests play the browser). Default: print it and open the system browser. */
  showAuthorizationUrl?: (url: URL) => void | Promise<void>;
  /** Asks a yes/no question on the terminal (default answer no). Default: @inquirer/prompts' confirm on stderr. */
  confirm?: (question: string) => Promise<boolean>;
}

/** The resolved IO of one CLI run. */
export interface CliContext {
  readonly stdout: CliWritable;
  readonly stderr: CliWritable;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly isTTY: boolean;
  readonly columns: number;
  readonly colors: CliColors;
  readonly adapterFactory?: ServerSetAdapterFactory;
  readonly engine?: MCPEngine;
  readonly loadEngine2026: Engine2026Loader;
  readonly now?: () => number;
  /** The server the bin's fast path spawned for `call`, before the command line was parsed. */
  readonly prestarted?: PrestartedServer;
  /** Someone can answer questions on stdin (CliIO's stdinIsTTY, else whether fd 0 is a terminal). */
  isStdinTTY(): boolean;
  readonly showAuthorizationUrl?: (url: URL) => void | Promise<void>;
  confirm(question: string): Promise<boolean>;
  out(line?: string): void;
  err(line?: string): void;
}

export function createCliContext(io: CliIO): CliContext {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const env = io.env ?? process.env;
  const isTTY = io.isTTY ?? stdout.isTTY === true;
  let stdinIsTTY = io.stdinIsTTY;
  return {
    stdout,
    stderr,
    env,
    cwd: io.cwd ?? process.cwd(),
    isTTY,
    columns: io.columns ?? stdout.columns ?? 80,
    colors: cliColors(colorEnabled(env, isTTY)),
    ...(io.adapterFactory === undefined ? {} : { adapterFactory: io.adapterFactory }),
    ...(io.engine === undefined ? {} : { engine: io.engine }),
    // Loaded when a command connects servers, so --help and --version stay as quick as before.
    loadEngine2026:
      io.loadEngine2026 ?? (async (cwd) => (await import("./engine-2026-loader.js")).loadInstalledEngine2026(cwd)),
    ...(io.now === undefined ? {} : { now: io.now }),
    isStdinTTY: () => (stdinIsTTY ??= stdinIsTerminal()),
    ...(io.showAuthorizationUrl === undefined ? {} : { showAuthorizationUrl: io.showAuthorizationUrl }),
    confirm: io.confirm ?? confirmOnTerminal,
    out: (line = "") => stdout.write(`${line}\n`),
    err: (line = "") => stderr.write(`${line}\n`),
  };
}

/**
 * isatty(0), asked when a command needs to know (an approval or a server's question), not at start:
 * node:tty costs about 6 ms of CPU to load on Node 24, and `call --yes` never asks. Not
 * process.stdin.isTTY: that getter builds a stream over fd 0 (a pipe handle when stdin is a pipe)
 * that a command which never reads stdin has no use for.
 */
function stdinIsTerminal(): boolean {
  return process.getBuiltinModule("node:tty").isatty(0);
}

/** y/N on stderr (stdout stays the command's output); the prompt library loads only when asked. */
async function confirmOnTerminal(question: string): Promise<boolean> {
  const { confirm } = await import("@inquirer/prompts");
  try {
    return await confirm({ message: question, default: false }, { output: process.stderr });
  } catch (error) {
    // Ctrl+C in the prompt: the user did not approve.
    if (error instanceof Error && error.name === "ExitPromptError") return false;
    throw error;
  }
}

/** https://no-color.org: NO_COLOR (non-empty) turns colour off; FORCE_COLOR turns it on; else only on a TTY. */
function colorEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false") return true;
  return isTTY;
}
