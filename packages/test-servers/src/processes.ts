import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/** One process as /proc describes it. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** Session id: a process spawned detached leads its own session, and its children stay in it. */
  sid: number;
  /** Kernel state letter: R, S, D, Z (zombie: dead, waiting to be reaped), ... */
  state: string;
  /** Clock ticks after boot; with the pid it names one process (pids get reused). */
  startTime: number;
  cmdline: string;
}

/** Reads /proc/<pid>; undefined when the process is gone (or this is not Linux). */
export function readProcess(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name sits in parentheses and may itself contain spaces or ")", so split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  let cmdline = "";
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    // Gone between the two reads; the stat line is still right.
  }
  return {
    pid,
    state: fields[0] ?? "?",
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: Number(fields[19]),
    cmdline: cmdline === "" ? stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) : cmdline,
  };
}

/** Every process on the machine, zombies included. */
export function listProcesses(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch (cause) {
    throw new Error("Process leak checks read /proc, which this system does not have (they need Linux)", { cause });
  }
  const processes: ProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readProcess(Number(entry));
    if (info !== undefined) processes.push(info);
  }
  return processes;
}

/** Live (not zombie) descendants of `rootPid`, default the current process. */
export function listDescendantProcesses(rootPid: number = process.pid): ProcessInfo[] {
  return descendantsOf(rootPid, listProcesses());
}

function descendantsOf(rootPid: number, processes: readonly ProcessInfo[]): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const info of processes) children.set(info.ppid, [...(children.get(info.ppid) ?? []), info]);
  const found: ProcessInfo[] = [];
  const queue = [rootPid];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found.filter((info) => info.state !== "Z");
}

/**
 * Process groups (or sessions) to keep checking after their leader dies: a grandchild whose
 * parent died is re-parented to init and is no longer our descendant, but it keeps its group.
 */
const watchedGroups = new Set<number>();

/**
 * Counts every live process of this group or session as ours in later leak checks. Only for
 * processes spawned detached (leading their own group): the test process's own group and
 * session are ignored, since they hold the test runner itself.
 */
export function watchProcessGroup(pgid: number): void {
  const self = readProcess(process.pid);
  if (self !== undefined && (pgid === self.pgid || pgid === self.sid)) return;
  watchedGroups.add(pgid);
}

/** Single processes to keep checking, by pid and start time (a reused pid is someone else). */
const watchedProcesses = new Map<number, number>();

/**
 * Counts this one process as ours in later leak checks, wherever it is re-parented, whatever group
 * or session it moves to: for a process that carries no leak marker (it scrubbed its environment)
 * and is no descendant once its parent died. Its pid is known to the test, e.g. from
 * `parseGrandchildPids`. Ignored when the process is already gone.
 */
export function watchProcess(pid: number): void {
  const info = readProcess(pid);
  if (info !== undefined) watchedProcesses.set(pid, info.startTime);
}

/**
 * The environment variable that marks a process as started by this test process. The leak check
 * finds every live process whose environment carries `LEAK_MARKER_ENV_NAME=<this process's
 * marker>`, wherever it was re-parented and whatever session it moved to, because children
 * inherit the environment. Deliberately separate from any mechanism of the code under test
 * (our stdio transport tags its servers on its own): tests put it in the server config's `env`.
 */
export const LEAK_MARKER_ENV_NAME = "MCP_TOOL_ADAPTER_TEST_LEAK_MARKER";
const leakMarker = `${process.pid}-${randomBytes(8).toString("hex")}`;

/** `{ [LEAK_MARKER_ENV_NAME]: marker }`: spread into a server config's `env` so leak checks can find its processes. */
export function leakMarkerEnv(): Record<string, string> {
  return { [LEAK_MARKER_ENV_NAME]: leakMarker };
}

/** Whether the process's environment holds our leak marker (an unreadable or vanished one does not). */
export function hasLeakMarker(pid: number): boolean {
  let environ: string;
  try {
    environ = readFileSync(`/proc/${pid}/environ`, "latin1");
  } catch {
    return false;
  }
  return environ.split("\0").includes(`${LEAK_MARKER_ENV_NAME}=${leakMarker}`);
}

/**
 * Live processes this test process is responsible for: descendants, members of watched groups,
 * watched processes, and processes carrying the leak marker.
 */
export function listOwnedProcesses(): ProcessInfo[] {
  const processes = listProcesses();
  const self = processes.find((info) => info.pid === process.pid);
  const owned = new Map<number, ProcessInfo>();
  for (const info of descendantsOf(process.pid, processes)) owned.set(info.pid, info);
  for (const info of processes) {
    if (info.state === "Z" || info.pid === process.pid || owned.has(info.pid)) continue;
    // The marker was made by this process, so only processes started since can carry it.
    const markable = self === undefined || info.startTime >= self.startTime;
    const watched =
      watchedProcesses.get(info.pid) === info.startTime || watchedGroups.has(info.pgid) || watchedGroups.has(info.sid);
    if (watched || (markable && hasLeakMarker(info.pid))) owned.set(info.pid, info);
  }
  return [...owned.values()];
}

/**
 * Processes a leak check leaves alone: a test (or a command line) pattern, or a predicate. For
 * helpers the runner itself keeps alive, e.g. tsx's `esbuild --service` child under cucumber.
 */
export type ProcessIgnore =
  RegExp | string | ((info: ProcessInfo) => boolean) | readonly (RegExp | string | ((info: ProcessInfo) => boolean))[];

function ignoredBy(ignore: ProcessIgnore | undefined): (info: ProcessInfo) => boolean {
  if (ignore === undefined) return () => false;
  const rules = Array.isArray(ignore) ? ignore : [ignore];
  const tests = rules.map((rule: RegExp | string | ((info: ProcessInfo) => boolean)) =>
    typeof rule === "function"
      ? rule
      : typeof rule === "string"
        ? (info: ProcessInfo) => info.cmdline.includes(rule)
        : (info: ProcessInfo) => rule.test(info.cmdline),
  );
  return (info) => tests.some((test) => test(info));
}

/**
 * Waits (polling /proc) until no process of ours is left; resolves with the leftovers after
 * `timeoutMs`, or an empty list as soon as there are none. `ignore` names processes that do not count.
 */
export async function waitForNoDescendants(
  timeoutMs = 5000,
  pollMs = 25,
  ignore?: ProcessIgnore,
): Promise<ProcessInfo[]> {
  const ignored = ignoredBy(ignore);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = listOwnedProcesses().filter((info) => !ignored(info));
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export interface LeakCheckOptions {
  /** How long processes get to finish exiting. Default 5000 ms. */
  timeoutMs?: number;
  /**
   * Processes that are not leaks (neither reported nor killed): a RegExp tested against the
   * command line, a substring of it, a predicate, or a list of these.
   */
  ignore?: ProcessIgnore;
}

/**
 * For afterEach: fails naming every process of ours still running after the wait, and kills
 * them (SIGKILL) so one leak does not spill into the next test. Forgets watched groups and processes.
 */
export async function expectNoLeakedProcesses(options: LeakCheckOptions = {}): Promise<void> {
  const left = await waitForNoDescendants(options.timeoutMs ?? 5000, undefined, options.ignore);
  watchedGroups.clear();
  watchedProcesses.clear();
  if (left.length === 0) return;
  for (const info of left) {
    try {
      process.kill(info.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  const list = left
    .map(
      (info) =>
        `  pid ${info.pid} (ppid ${info.ppid}, pgid ${info.pgid}, sid ${info.sid}, state ${info.state}): ${info.cmdline}`,
    )
    .join("\n");
  throw new Error(`${left.length} process(es) leaked by this test (now killed):\n${list}`);
}
