import { fileURLToPath } from "node:url";

/** Absolute path of the hostile MCP stdio server script (plain ESM, run by node directly). */
export const HOSTILE_SERVER_PATH: string = fileURLToPath(new URL("../servers/hostile-server.mjs", import.meta.url));

/** Tools the hostile server answers whatever it lists (see the header of servers/hostile-server.mjs). */
export const HOSTILE_TOOL_NAMES = [
  "echo",
  "crash",
  "exit",
  "hang",
  "slow",
  "garbage",
  "huge",
  "proto",
  "error",
  "throw",
  "spawn-grandchild",
  "spawn-grandchild-and-exit",
  "pid",
  "env",
  "argv",
  "stderr",
] as const;

export type HostileToolName = (typeof HOSTILE_TOOL_NAMES)[number];

/** How the hostile server misbehaves; each option is one command-line flag of the script. */
export interface HostileServerOptions {
  /** Print an error to stderr and exit with code 3 before reading anything. */
  exitAtStart?: boolean;
  /** Read stdin but never answer; keeps running after stdin closes until killed. */
  neverInitialize?: boolean;
  /** Ignore SIGTERM so only SIGKILL stops the server. */
  ignoreSigterm?: boolean;
  /**
   * Start a long-lived grandchild and print `grandchild-pid=N` to stderr:
   * `"serve"` then serves normally, `"exit"` then exits 0 without serving, `"crash"` then kills
   * itself with SIGKILL without serving (both after `exitAfterGrandchildMs`).
   */
  spawnGrandchild?: "serve" | "exit" | "crash";
  /** With `spawnGrandchild` `"exit"` or `"crash"`: how long after starting the grandchild the server goes (script default 0). */
  exitAfterGrandchildMs?: number;
  /** The grandchild inherits the server's stdout/stderr, keeping the pipes open after the server dies. */
  grandchildHoldsStdio?: boolean;
  /** The grandchild ends itself after this long (script default 120 000 ms). */
  grandchildLifetimeMs?: number;
  /**
   * How the grandchild is started: `"plain"` (default) a child with the server's environment;
   * `"daemon"` double-forked into a session of its own, an orphan from the start (keeps the
   * environment); `"scrubbed-env"` a child with an empty environment; `"new-group"` a child that
   * moves to a process group of its own in the server's session (keeps the environment; needs perl).
   */
  grandchildStyle?: "plain" | "daemon" | "scrubbed-env" | "new-group";
  /** Write non-JSON lines and invalid JSON-RPC to stdout before serving. */
  garbageAtStart?: boolean;
  /** Write this many bytes to stderr at start. */
  stderrFloodBytes?: number;
  /** List this many generated echo tools `tool_0` .. instead of the standard tools. */
  tools?: number;
  /** Serve tools/list in pages of this size. */
  pageSize?: number;
  /** List tools with hostile names (`../x`, `a/b`, ``, 10 KB, control chars, `__proto__`, `constructor`) plus `ok_tool`. */
  badNames?: boolean;
  /** List tools with hostile input schemas (`remote_ref`, `recursive_ref`, `ref_loop`, `invalid_schema`) plus `ok_tool`. */
  badSchemas?: boolean;
  /** The server exits after this long whatever happens (script default 300 000 ms). */
  maxLifetimeMs?: number;
  /** Extra arguments appended after the flags (the `argv` tool answers them back). */
  extraArgs?: readonly string[];
  /** Environment for the server (added to whatever the launching transport provides). */
  env?: Record<string, string>;
}

/** A stdio launch description: what a stdio transport (ours or the SDK's) spawns. */
export interface HostileServerConfig {
  command: string;
  args: string[];
  env: Record<string, string>;
}

function hostileServerArgs(options: HostileServerOptions): string[] {
  const flags: string[] = [];
  const flag = (on: boolean | undefined, name: string): void => {
    if (on === true) flags.push(`--${name}`);
  };
  const valueFlag = (value: number | undefined, name: string): void => {
    if (value !== undefined) flags.push(`--${name}=${value}`);
  };
  flag(options.exitAtStart, "exit-at-start");
  flag(options.neverInitialize, "never-initialize");
  flag(options.ignoreSigterm, "ignore-sigterm");
  flag(options.spawnGrandchild === "serve", "spawn-grandchild");
  flag(options.spawnGrandchild === "exit", "spawn-grandchild-and-exit");
  flag(options.spawnGrandchild === "crash", "spawn-grandchild-and-crash");
  valueFlag(options.exitAfterGrandchildMs, "exit-after-grandchild-ms");
  flag(options.grandchildHoldsStdio, "grandchild-holds-stdio");
  valueFlag(options.grandchildLifetimeMs, "grandchild-lifetime-ms");
  if (options.grandchildStyle !== undefined) flags.push(`--grandchild-style=${options.grandchildStyle}`);
  flag(options.garbageAtStart, "garbage-at-start");
  valueFlag(options.stderrFloodBytes, "stderr-flood");
  valueFlag(options.tools, "tools");
  valueFlag(options.pageSize, "page-size");
  flag(options.badNames, "bad-names");
  flag(options.badSchemas, "bad-schemas");
  valueFlag(options.maxLifetimeMs, "max-lifetime-ms");
  return [HOSTILE_SERVER_PATH, ...flags, ...(options.extraArgs ?? [])];
}

/**
 * How to launch the hostile MCP server over stdio: `{ command: <node>, args, env }`, ready for
 * `createStdioTransport`, an `MCPServerConfig` (spread it in with a name) or the SDK's
 * `StdioClientTransport`.
 */
export function hostileServerConfig(options: HostileServerOptions = {}): HostileServerConfig {
  return { command: process.execPath, args: hostileServerArgs(options), env: { ...options.env } };
}

/** Reads `grandchild-pid=N` lines from the hostile server's stderr output. */
export function parseGrandchildPids(stderr: string): number[] {
  return [...stderr.matchAll(/grandchild-pid=(\d+)/g)].map((match) => Number(match[1]));
}
