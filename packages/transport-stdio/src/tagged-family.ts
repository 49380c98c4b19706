import { randomBytes } from "node:crypto";
import type { FamilyMembers, ProcessFamily } from "./process-family.js";
import { currentProcTable, isRunning, readProcStat, type ProcStat } from "./proc-table.js";

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

/**
 * The server stays in the host's session; its family is found in /proc: the server itself, every
 * process whose environment carries this transport's token (children inherit it, so processes
 * re-parented after their parent died, or that called setsid, are found too), and every live
 * descendant of those (children started with a scrubbed environment, while their parent lives).
 */
export class TaggedFamily implements ProcessFamily {
  readonly strategy = "tagged";
  readonly detached = false;
  readonly environment: Readonly<Record<string, string>>;
  readonly #entry: string;
  readonly #procRoot: string;
  #leader: Member | undefined;

  constructor(procRoot: string, token: string = randomBytes(16).toString("hex")) {
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
    if (leader === undefined) return new TaggedMembers([], this.#procRoot);
    const found = new Map<number, Member>();
    // Members found earlier stay members even if a rescan would miss them now (say, a child
    // without the token whose parent has since died).
    if (also instanceof TaggedMembers) for (const member of also.stillRunning().members) found.set(member.pid, member);
    // Everything of the family started after the server did: older processes are not read at all.
    const table = currentProcTable(this.#procRoot);
    const candidates = table.running.filter((stat) => stat.startTime >= leader.startTime && stat.pid !== process.pid);
    for (const stat of candidates) {
      if (isSameProcess(stat, leader) || table.environHasEntry(stat.pid, this.#entry)) found.set(stat.pid, stat);
    }
    addDescendants(found, candidates);
    return new TaggedMembers([...found.values()], this.#procRoot);
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

/** Processes of one family as found at one moment, each known by pid and start time. */
class TaggedMembers implements FamilyMembers {
  readonly members: readonly Member[];
  readonly #procRoot: string;

  constructor(members: readonly Member[], procRoot: string) {
    this.members = members;
    this.#procRoot = procRoot;
  }

  get empty(): boolean {
    return this.members.length === 0;
  }

  get pids(): readonly number[] {
    return this.members.map((member) => member.pid);
  }

  signal(signal: NodeJS.Signals): void {
    // Checked again right before each kill: a member that ended since the scan may have had its pid reused.
    for (const member of this.#running()) sendSignal(member.pid, signal);
  }

  stillRunning(): TaggedMembers {
    return new TaggedMembers(this.#running(), this.#procRoot);
  }

  #running(): Member[] {
    return this.members.filter((member) => {
      const stat = readProcStat(member.pid, this.#procRoot);
      return isRunning(stat) && isSameProcess(stat, member);
    });
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
