import { StdioTransportError } from "./errors.js";
import { GroupFamily } from "./group-family.js";
import { canReadProcEnvironments, DEFAULT_PROC_ROOT } from "./proc-table.js";
import { SERVER_TOKEN_ENV_VAR, TaggedFamily } from "./tagged-family.js";

/**
 * How a server and everything it started are found and signalled at close, crash and host exit.
 *
 * - `"tagged"` (default on Linux): the server stays in the host's session and process group; it
 *   gets a random token in `MCP_TOOL_ADAPTER_SERVER_TOKEN`, and its family is every process whose
 *   environment carries that token (children inherit it, even after re-parenting or setsid) plus
 *   the live descendants of the server. Needs `/proc`.
 * - `"group"` (default elsewhere): the server is spawned detached, leading a new session and
 *   process group, and the group is signalled. Reaches children that scrub their environment even
 *   after their parent died, but a new session is a new scheduling group under Linux autogroups.
 *   On Windows only the server process itself is signalled.
 */
export type ProcessFamilyStrategy = "tagged" | "group";

export const PROCESS_FAMILY_STRATEGIES: readonly ProcessFamilyStrategy[] = ["tagged", "group"];

/** The processes of a family found at one moment, to signal and to wait for. */
export interface FamilyMembers {
  /** True when nothing of the family is running. */
  readonly empty: boolean;
  /** Pids for logs (a group is described by its leader). */
  readonly pids: readonly number[];
  /** Signals every member that is still the process it was when found. */
  signal(signal: NodeJS.Signals): void;
  /** The members still running now (no rescan: only processes already found). */
  stillRunning(): FamilyMembers;
}

export interface ProcessFamily {
  readonly strategy: ProcessFamilyStrategy;
  /** Spawn with `detached` (a new session and process group). */
  readonly detached: boolean;
  /** Set on top of the server's environment. */
  readonly environment: Readonly<Record<string, string>>;
  /** Records the server's pid; call right after spawn, before the event loop can reap it. */
  adopt(leaderPid: number): void;
  /** Finds the family now (synchronous, so the host `exit` hook can use it); `also` keeps those still running. */
  find(also?: FamilyMembers): FamilyMembers;
}

/** Edges a test can point elsewhere; defaults are the real system. */
export interface ProcessFamilyEnvironment {
  platform?: NodeJS.Platform;
  procRoot?: string;
}

/** "tagged" where process environments can be read (Linux), "group" everywhere else. */
export function defaultProcessFamily(system: ProcessFamilyEnvironment = {}): ProcessFamilyStrategy {
  return taggedSupported(system) ? "tagged" : "group";
}

/** Builds the family for one transport; throws PROCESS_FAMILY_UNSUPPORTED for a strategy this system cannot do. */
export function createProcessFamily(
  requested: ProcessFamilyStrategy | undefined,
  command: string,
  system: ProcessFamilyEnvironment = {},
): ProcessFamily {
  const strategy = requested ?? defaultProcessFamily(system);
  if (!PROCESS_FAMILY_STRATEGIES.includes(strategy)) {
    throw new StdioTransportError(
      "PROCESS_FAMILY_UNSUPPORTED",
      `Unknown processFamily ${JSON.stringify(strategy)} for MCP server "${command}". Use "tagged" or "group", or leave it unset for the platform's default.`,
      { command },
    );
  }
  if (strategy === "group") return new GroupFamily();
  if (!taggedSupported(system)) {
    throw new StdioTransportError(
      "PROCESS_FAMILY_UNSUPPORTED",
      `processFamily "tagged" needs to read process environments from ${system.procRoot ?? DEFAULT_PROC_ROOT} (Linux), which this system (${system.platform ?? process.platform}) does not allow, so MCP server "${command}" could not be tracked. Use processFamily "group", or leave it unset for the platform's default.`,
      { command },
    );
  }
  return new TaggedFamily(system.procRoot ?? DEFAULT_PROC_ROOT);
}

export { SERVER_TOKEN_ENV_VAR };

function taggedSupported(system: ProcessFamilyEnvironment): boolean {
  return canReadProcEnvironments(system.procRoot ?? DEFAULT_PROC_ROOT, system.platform ?? process.platform);
}
