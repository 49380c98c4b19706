// The process family's contract, in a type file: the two strategies (group-family.ts,
// proc-family.ts) implement it and process-family.ts picks one, without importing each other.

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
 *   setpgid) is found just while its parent lives or once a snapshot saw it. Without a launcher
 *   (this package's own runs on Linux x64; elsewhere perl on the PATH) the server stays in the
 *   host's group and every scrubbed child is in that case.
 * - `"group"` (the default where /proc cannot be read): the server is spawned detached, leading a
 *   new session and process group; its family also holds everything still in that group or
 *   session, so a child that scrubbed its environment is found even after its parent died. A new
 *   session is a new scheduling group under Linux autogroups, which slows every round trip on a
 *   busy machine. Without /proc only the group is signalled; on Windows only the server.
 */
export type ProcessFamilyStrategy = "tagged" | "group";

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
  /**
   * Finds the family now (synchronous, so the host `exit` hook can use it); `also` keeps those
   * still running, and a family may then look only at the processes started since `also` was found.
   */
  find(also?: FamilyMembers): FamilyMembers;
  /** Notes the server's current descendants so later finds keep them; returns pids not seen before. */
  remember(): number[];
}
