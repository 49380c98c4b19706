import { closeSync, openSync, readdirSync, readSync } from "node:fs";
import { parsePidCounter, pidsHandedOutBetween, type PidCounter } from "./pid-counter.js";

/** What a family scan needs to know about one process, from `/proc/<pid>/stat`. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** Process group id. */
  pgid: number;
  /** Session id. */
  sid: number;
  /** Kernel state letter; Z (zombie) and X (dead) mean the process is already gone. */
  state: string;
  /** Clock ticks after boot. With the pid, it names one process: a reused pid gets a later start time. */
  startTime: number;
}

export const DEFAULT_PROC_ROOT = "/proc";

// Full scans run only at close, crash and host exit, but synchronously (the host `exit` hook cannot
// wait), so they reuse one buffer instead of allocating per file: most stat lines are ~300 bytes.
let scratch = Buffer.allocUnsafe(16 * 1024);

/**
 * Reads a whole /proc file into the shared buffer; undefined when it cannot be read (gone,
 * EACCES, a kernel thread's empty mm). The returned view is valid until the next call.
 */
function readProcFile(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    let length = 0;
    for (;;) {
      if (length === scratch.length) {
        const bigger = Buffer.allocUnsafe(scratch.length * 2);
        scratch.copy(bigger, 0, 0, length);
        scratch = bigger;
      }
      const read = readSync(fd, scratch, length, scratch.length - length, null);
      if (read === 0) return scratch.subarray(0, length);
      length += read;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Parses one `/proc/<pid>/stat` line; undefined when the process is gone or the line is not one. */
export function readProcStat(pid: number, procRoot: string = DEFAULT_PROC_ROOT): ProcStat | undefined {
  const bytes = readProcFile(`${procRoot}/${pid}/stat`);
  if (bytes === undefined) return undefined;
  const line = bytes.toString("latin1");
  // The command name sits in parentheses and may itself contain spaces or ")": split after the last ")".
  const close = line.lastIndexOf(")");
  if (close === -1) return undefined;
  const fields = line.slice(close + 2).split(" ");
  const ppid = Number(fields[1]);
  const pgid = Number(fields[2]);
  const sid = Number(fields[3]);
  const startTime = Number(fields[19]);
  const state = fields[0];
  if (
    state === undefined ||
    state === "" ||
    !Number.isInteger(ppid) ||
    !Number.isInteger(pgid) ||
    !Number.isInteger(sid) ||
    !Number.isInteger(startTime)
  ) {
    return undefined;
  }
  return { pid, ppid, pgid, sid, state, startTime };
}

export function isRunning(stat: ProcStat | undefined): stat is ProcStat {
  return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
}

/** Every running (not zombie) process `/proc` lists, in no particular order. */
export function listRunningProcesses(procRoot: string = DEFAULT_PROC_ROOT): ProcStat[] {
  let entries: string[];
  try {
    entries = readdirSync(procRoot);
  } catch {
    return [];
  }
  const running: ProcStat[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    // A process listed a moment ago may be gone by now: it is simply not there.
    const stat = readProcStat(pid, procRoot);
    if (isRunning(stat)) running.push(stat);
  }
  return running;
}

/**
 * The pids of the process's children, from `/proc/<pid>/task/<tid>/children` of each of its
 * threads (a child belongs to the thread that forked it). Undefined when the process is gone or
 * the kernel lacks these files (CONFIG_PROC_CHILDREN): then only a full scan can tell.
 */
export function readChildPids(pid: number, procRoot: string = DEFAULT_PROC_ROOT): number[] | undefined {
  let threads: string[];
  try {
    threads = readdirSync(`${procRoot}/${pid}/task`);
  } catch {
    return undefined;
  }
  const children: number[] = [];
  for (const tid of threads) {
    const bytes = readProcFile(`${procRoot}/${pid}/task/${tid}/children`);
    if (bytes === undefined) {
      // A thread that ended since the listing has no children left to report; a missing file
      // for the main thread means the kernel does not offer them at all.
      if (tid === String(pid)) return undefined;
      continue;
    }
    for (const field of bytes.toString("latin1").split(" ")) {
      const child = Number(field);
      if (field !== "" && Number.isInteger(child)) children.push(child);
    }
  }
  return children;
}

/**
 * Whether the process's environment holds exactly `entry` (`NAME=value`) as one of its
 * NUL-separated strings. An environment that cannot be read (EACCES, gone) holds nothing.
 */
export function environHasEntry(pid: number, entry: string, procRoot: string = DEFAULT_PROC_ROOT): boolean {
  const environ = readProcFile(`${procRoot}/${pid}/environ`);
  return environ !== undefined && holdsEntry(environ, entry);
}

function holdsEntry(environ: Buffer, entry: string): boolean {
  const needle = Buffer.from(entry, "latin1");
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    // Whole strings only: not `XNAME=value`, not `NAME=value-and-more`.
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}

/** The pid counter now (see pid-counter.ts); undefined where /proc does not offer it: then only a full scan can tell. */
export function readPidCounter(procRoot: string = DEFAULT_PROC_ROOT): PidCounter | undefined {
  const loadavg = readProcFile(`${procRoot}/loadavg`)?.toString("latin1");
  const stat = loadavg === undefined ? undefined : readProcFile(`${procRoot}/stat`)?.toString("latin1");
  return stat === undefined || loadavg === undefined ? undefined : parsePidCounter(loadavg, stat);
}

/** The running processes at one moment, with each environment read at most once. */
export interface ProcTable {
  readonly running: readonly ProcStat[];
  /** The pid counter read before the listing: a process started since has a later pid (see pid-counter.ts). */
  readonly counter: PidCounter | undefined;
  environHasEntry(pid: number, entry: string): boolean;
}

let current: { procRoot: string; table: ProcTable } | undefined;

/**
 * The process table for this synchronous turn. Scans in one turn see the same moment anyway, so
 * they share one read of /proc: at host exit, where every live transport scans inside one `exit`
 * listener, that makes one pass over /proc instead of one per server. Any await starts afresh.
 */
export function currentProcTable(procRoot: string = DEFAULT_PROC_ROOT): ProcTable {
  if (current?.procRoot === procRoot) return current.table;
  const table = procTable(procRoot, readPidCounter(procRoot), () => listRunningProcesses(procRoot));
  current = { procRoot, table };
  queueMicrotask(() => (current = undefined));
  return table;
}

/**
 * The processes started since `earlier` was read, as a table: only the pids handed out since are
 * read, not all of /proc. Undefined when a full scan is needed to tell (see pid-counter.ts).
 */
export function procTableSince(
  earlier: PidCounter | undefined,
  procRoot: string = DEFAULT_PROC_ROOT,
): ProcTable | undefined {
  const counter = readPidCounter(procRoot);
  const pids = pidsHandedOutBetween(earlier, counter);
  if (pids === undefined) return undefined;
  return procTable(procRoot, counter, () => {
    const running: ProcStat[] = [];
    // A pid here may be a thread's id, which reads as its process (same group, session, parent
    // and environment): it is family exactly when its process is.
    for (let pid = pids.first; pid <= pids.last; pid += 1) {
      const stat = readProcStat(pid, procRoot);
      if (isRunning(stat)) running.push(stat);
    }
    return running;
  });
}

function procTable(procRoot: string, counter: PidCounter | undefined, list: () => ProcStat[]): ProcTable {
  const environs = new Map<number, Buffer | undefined>();
  return {
    running: list(),
    counter,
    environHasEntry(pid, entry) {
      if (!environs.has(pid)) {
        const environ = readProcFile(`${procRoot}/${pid}/environ`);
        environs.set(pid, environ === undefined ? undefined : Buffer.from(environ));
      }
      const environ = environs.get(pid);
      return environ !== undefined && holdsEntry(environ, entry);
    },
  };
}

const readableRoots = new Map<string, boolean>();

/**
 * Whether this system lets us read process environments from `procRoot` (Linux with /proc
 * mounted). Asked of the system once per root; every later call is a lookup.
 */
export function canReadProcEnvironments(
  procRoot: string = DEFAULT_PROC_ROOT,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform !== "linux") return false;
  let readable = readableRoots.get(procRoot);
  if (readable === undefined) {
    readable =
      readProcStat(process.pid, procRoot) !== undefined &&
      readProcFile(`${procRoot}/${process.pid}/environ`) !== undefined;
    readableRoots.set(procRoot, readable);
  }
  return readable;
}
