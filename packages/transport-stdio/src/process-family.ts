import { StdioTransportError } from "./errors.js";
import { GroupFamily } from "./group-family.js";
import { canReadProcEnvironments, DEFAULT_PROC_ROOT } from "./proc-table.js";
import { ProcFamily, SERVER_TOKEN_ENV_VAR } from "./proc-family.js";

/**
 * How a server and everything it started are found and signalled at close, crash and host exit.
 * Where /proc can be read (Linux) both carry a random token in `MCP_TOOL_ADAPTER_SERVER_TOKEN`
 * (children inherit it, even after re-parenting or setsid) and take snapshots of the server's
 * descendants while it runs.
 *
 * - `"tagged"` (Linux only; the default there): the server stays in the host's session, like the
 *   SDK's own stdio transport, but leads a process group of its own (a launcher calls setpgid and
 *   execs it in place), so a child that scrubbed its environment is found through the group even
 *   after its parent died. Only a child that scrubbed its environment and left the group (setsid,
 *   setpgid) is found just while its parent lives or once a snapshot saw it. Without perl on the
 *   PATH the server stays in the host's group and every scrubbed child is in that case.
 * - `"group"` (the default where /proc cannot be read): the server is spawned detached, leading a
 *   new session and process group; its family also holds everything still in that group or
 *   session, so a child that scrubbed its environment is found even after its parent died. A new
 *   session is a new scheduling group under Linux autogroups, which slows every round trip on a
 *   busy machine. Without /proc only the group is signalled; on Windows only the server.
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
  /** Notes the server's current descendants so later finds keep them; returns pids not seen before. */
  remember(): number[];
}

/** Edges a test can point elsewhere; defaults are the real system. */
export interface ProcessFamilyEnvironment {
  platform?: NodeJS.Platform;
  procRoot?: string;
}

/**
 * "tagged" where /proc can be read: the token finds every process that keeps its environment (an
 * `npx` launcher, its real server and their re-parented or daemonised children) and the server's
 * own process group every one that stays in it, without the new session "group" needs, whose
 * separate scheduling group made sequential round trips several times slower on a loaded machine
 * (see docs/transports.md). "group" elsewhere: without /proc the process group is all there is.
 */
export function defaultProcessFamily(system: ProcessFamilyEnvironment = {}): ProcessFamilyStrategy {
  return procSupported(system) ? "tagged" : "group";
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
      `Unknown processFamily ${JSON.stringify(strategy)} for MCP server "${command}". Use "tagged" or "group", or leave it unset (the default is "tagged" where /proc can be read, "group" elsewhere).`,
      { command },
    );
  }
  const procRoot = system.procRoot ?? DEFAULT_PROC_ROOT;
  if (strategy === "group") return procSupported(system) ? new ProcFamily(procRoot, { strategy }) : new GroupFamily();
  if (!procSupported(system)) {
    throw new StdioTransportError(
      "PROCESS_FAMILY_UNSUPPORTED",
      `processFamily "tagged" needs to read process environments from ${system.procRoot ?? DEFAULT_PROC_ROOT} (Linux), which this system (${system.platform ?? process.platform}) does not allow, so MCP server "${command}" could not be tracked. Use processFamily "group", or leave it unset (the default here is "group").`,
      { command },
    );
  }
  return new ProcFamily(procRoot, { strategy });
}

export { SERVER_TOKEN_ENV_VAR };

function procSupported(system: ProcessFamilyEnvironment): boolean {
  return canReadProcEnvironments(system.procRoot ?? DEFAULT_PROC_ROOT, system.platform ?? process.platform);
}
