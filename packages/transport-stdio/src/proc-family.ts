import { closeSync, openSync, readSync } from "node:fs";
import type { PidCounter } from "./pid-counter.js";
import type { FamilyMembers, ProcessFamily, ProcessFamilyStrategy } from "./process-family-types.js";
import { signalProcessGroup } from "./process-group.js";
import {
  currentProcTable,
  isRunning,
  listRunningProcesses,
  procTableSince,
  readChildPids,
  readProcStat,
  type ProcStat,
} from "./proc-table.js";

/**
 * The variable that carries a transport's token into its server's environment. Reserved: a value
 * given in the config's `env` is replaced.
 */
export const SERVER_TOKEN_ENV_VAR = "MCP_TOOL_ADAPTER_SERVER_TOKEN";

/** A process as found by a scan: the pid and the start time that tell it apart from a later reuse of the pid. */
interface Member {
  pid: number;
  startTime: number;
}

export interface ProcFamilyOptions {
  /** `"group"`: the server is spawned detached, leading a session and process group of its own. Default `"tagged"`. */
  strategy?: ProcessFamilyStrategy;
  /** The value of SERVER_TOKEN_ENV_VAR; default a fresh random 128-bit one. */
  token?: string;
}

/**
 * A server's family as Linux's /proc shows it: the server itself; every process whose environment
 * carries this transport's token (children inherit it, so processes re-parented after their
 * parent died, or that called setsid, are found too); every process still in the server's process
 * group (and with `"group"` its session): children that scrub their environment stay there; every
 * live descendant of those; and every descendant a snapshot (`remember()`) saw while its parent
 * lived, so a child with a scrubbed environment is still known after its parent died.
 */
export class ProcFamily implements ProcessFamily {
  readonly strategy: ProcessFamilyStrategy;
  readonly detached: boolean;
  readonly environment: Readonly<Record<string, string>>;
  readonly #entry: string;
  readonly #procRoot: string;
  #leader: Member | undefined;
  #remembered: Member[] = [];

  constructor(procRoot: string, options: ProcFamilyOptions = {}) {
    const token = options.token ?? randomHexToken();
    this.strategy = options.strategy ?? "tagged";
    this.detached = this.strategy === "group";
    this.#procRoot = procRoot;
    this.#entry = `${SERVER_TOKEN_ENV_VAR}=${token}`;
    this.environment = { [SERVER_TOKEN_ENV_VAR]: token };
  }

  adopt(leaderPid: number): void {
    // Not yet reaped (that needs the event loop), so readable even if it already died.
    const stat = readProcStat(leaderPid, this.#procRoot);
    this.#leader = { pid: leaderPid, startTime: stat?.startTime ?? 0 };
  }

  find(also?: FamilyMembers): FamilyMembers {
    const leader = this.#leader;
    if (leader === undefined) return new ProcMembers([], this.#procRoot);
    const found = new Map<number, Member>();
    // Members found earlier stay members even if a rescan would miss them now (say, a child
    // without the token whose parent has since died).
    if (also instanceof ProcMembers) for (const member of also.stillRunning().members) found.set(member.pid, member);
    for (const member of this.#stillRemembered()) found.set(member.pid, member);
    // Everything of the family started after the server did: older processes are not read at all.
    // After a whole scan (`also`), only what started since: no process already running then can
    // have joined the family later, and a whole scan of /proc at the server's exit was most of
    // the time `call` took to exit after its server.
    const since = also instanceof ProcMembers ? procTableSince(also.counter, this.#procRoot) : undefined;
    const table = since ?? currentProcTable(this.#procRoot);
    const candidates = table.running.filter((stat) => stat.startTime >= leader.startTime && stat.pid !== process.pid);
    const group = this.#ownGroup(table.running);
    for (const stat of candidates) {
      const inGroup = group !== undefined && (stat.pgid === group || stat.sid === group);
      if (inGroup || isSameProcess(stat, leader) || table.environHasEntry(stat.pid, this.#entry))
        found.set(stat.pid, stat);
    }
    addDescendants(found, candidates);
    return new ProcMembers([...found.values()], this.#procRoot, { group, counter: table.counter });
  }

  /**
   * Takes note of the server's descendants as they are now, so that those who carry neither the
   * token nor the group (a child started with a scrubbed environment that left the session) are
   * still found after their parent died and they were re-parented. Cheap: reads the `children`
   * files of the family, not all of /proc. Returns the pids it had not seen before.
   */
  remember(): number[] {
    const leader = this.#leader;
    if (leader === undefined) return [];
    const known = new Map(this.#stillRemembered().map((member) => [member.pid, member]));
    const roots = [...known.values()];
    if (isSameProcess(readProcStat(leader.pid, this.#procRoot), leader)) roots.push(leader);
    const added: number[] = [];
    const note = (stat: ProcStat): void => {
      if (known.has(stat.pid) || stat.pid === leader.pid || stat.startTime < leader.startTime) return;
      known.set(stat.pid, stat);
      added.push(stat.pid);
    };
    if (!this.#walkChildren(roots, note)) {
      const found = new Map(roots.map((member) => [member.pid, member]));
      addDescendants(found, listRunningProcesses(this.#procRoot));
      for (const member of found.values()) if ("ppid" in member) note(member as ProcStat);
    }
    this.#remembered = [...known.values()];
    return added;
  }

  /** Breadth-first through `children` files; false when the kernel does not offer them. */
  #walkChildren(roots: readonly Member[], note: (stat: ProcStat) => void): boolean {
    const queue = roots.map((member) => member.pid);
    const seen = new Set(queue);
    for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
      const children = readChildPids(pid, this.#procRoot);
      if (children === undefined) {
        if (isRunning(readProcStat(pid, this.#procRoot))) return false;
        continue;
      }
      for (const child of children) {
        if (seen.has(child)) continue;
        seen.add(child);
        const stat = readProcStat(child, this.#procRoot);
        if (!isRunning(stat)) continue;
        note(stat);
        queue.push(child);
      }
    }
    return true;
  }

  #stillRemembered(): Member[] {
    return this.#remembered.filter((member) => isStillRunning(member, this.#procRoot));
  }

  /**
   * The server's pid as a group and session id, while that id is still ours. The server leads a
   * group of its own with either strategy ("group": spawned detached; "tagged": through the
   * setpgid launcher), and a session only with "group". The kernel keeps a pid in use while any
   * process has it as group or session id, so unless another process now has the leader's pid,
   * whoever has it as group or session is family (with "tagged" and no launcher, nobody has).
   */
  #ownGroup(running: readonly ProcStat[]): number | undefined {
    const leader = this.#leader;
    if (leader === undefined) return undefined;
    const holder = running.find((stat) => stat.pid === leader.pid) ?? readProcStat(leader.pid, this.#procRoot);
    return holder === undefined || isSameProcess(holder, leader) ? leader.pid : undefined;
  }
}

function addDescendants(found: Map<number, Member>, candidates: readonly ProcStat[]): void {
  const children = new Map<number, ProcStat[]>();
  for (const stat of candidates) {
    const siblings = children.get(stat.ppid);
    if (siblings === undefined) children.set(stat.ppid, [stat]);
    else siblings.push(stat);
  }
  const queue = [...found.keys()];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, child);
      queue.push(child.pid);
    }
  }
}

function isSameProcess(stat: ProcStat | undefined, member: Member): boolean {
  return stat !== undefined && stat.pid === member.pid && stat.startTime === member.startTime;
}

function isStillRunning(member: Member, procRoot: string): boolean {
  const stat = readProcStat(member.pid, procRoot);
  return isRunning(stat) && isSameProcess(stat, member);
}

/** Processes of one family as found at one moment, each known by pid and start time. */
class ProcMembers implements FamilyMembers {
  readonly members: readonly Member[];
  /** The pid counter before the scan that found them: a rescan reads only the pids handed out since. */
  readonly counter: PidCounter | undefined;
  readonly #procRoot: string;
  /** The server's process group, signalled as a whole too: it also reaches children forked since the scan. */
  readonly #group: number | undefined;

  constructor(members: readonly Member[], procRoot: string, scan: { group?: number; counter?: PidCounter } = {}) {
    this.members = members;
    this.counter = scan.counter;
    this.#procRoot = procRoot;
    this.#group = scan.group;
  }

  get empty(): boolean {
    return this.members.length === 0;
  }

  get pids(): readonly number[] {
    return this.members.map((member) => member.pid);
  }

  signal(signal: NodeJS.Signals): void {
    const running = this.#running();
    if (this.#group !== undefined && running.length > 0) signalProcessGroup(this.#group, signal);
    // Checked again right before each kill: a member that ended since the scan may have had its pid reused.
    for (const member of running) sendSignal(member.pid, signal);
  }

  stillRunning(): ProcMembers {
    return new ProcMembers(this.#running(), this.#procRoot, { group: this.#group, counter: this.counter });
  }

  #running(): Member[] {
    return this.members.filter((member) => isStillRunning(member, this.#procRoot));
  }
}

function sendSignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: it ended after the check. EPERM: not ours to signal (it changed user). Nothing more
    // to do either way, and this may run inside the host's `exit` hook, which must not throw.
  }
}

/**
 * 16 random bytes as hex, read from the kernel's /dev/urandom (this family runs only where /proc
 * is, so on Linux): three system calls, where the first Web Crypto call of a process loads
 * webcrypto's modules, 5-9 ms of CPU inside `connect()` before the server is spawned (and
 * node:crypto, imported at module load, cost every import of this package 8-12 ms). Web Crypto
 * stays the fallback for a sandbox without /dev/urandom.
 */
function randomHexToken(): string {
  const bytes = Buffer.alloc(16);
  let fd: number | undefined;
  try {
    fd = openSync("/dev/urandom", "r");
    if (readSync(fd, bytes, 0, bytes.length, null) === bytes.length) return bytes.toString("hex");
  } catch {
    // Not readable here: Web Crypto below.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(16))).toString("hex");
}
