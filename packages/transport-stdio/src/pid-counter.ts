/**
 * Where the kernel's pid allocation stood at one moment: the pid it handed out last in this pid
 * namespace (the last field of /proc/loadavg) and the tasks forked since boot (`processes` in
 * /proc/stat: every process and thread, whatever the namespace, so never fewer than the pids
 * handed out here since).
 */
export interface PidCounter {
  readonly lastPid: number;
  readonly forks: number;
}

/**
 * Past this many pids (or forks) between two counters, a full scan is cheaper than reading every
 * pid in between, and a wrap of the pid counter cannot hide among them: pid_max is at least 32768.
 */
const MOST_PIDS_TO_READ = 1024;

/** Reads a counter from the two files' text (see readPidCounter in proc-table.ts); undefined if either is not as expected. */
export function parsePidCounter(loadavg: string, stat: string): PidCounter | undefined {
  const lastPid = Number(loadavg.trim().split(" ").at(-1));
  const forks = Number(/^processes (\d+)$/m.exec(stat)?.[1]);
  return Number.isInteger(lastPid) && Number.isInteger(forks) ? { lastPid, forks } : undefined;
}

/**
 * How many pids before the earlier counter are read again: a fork under way when that counter was
 * read may have had its pid already and yet not have shown in the listing that followed.
 */
const PIDS_IN_FLIGHT = 8;

/**
 * The pids to read for every process started between two counters (first and last, inclusive):
 * those handed out after `before` up to `after`, and the few before it a fork under way may have
 * held. Undefined when that cannot be told without a full scan: a counter missing, the pid counter
 * wrapped, or too many pids to read.
 */
export function pidsHandedOutBetween(
  before: PidCounter | undefined,
  after: PidCounter | undefined,
): { first: number; last: number } | undefined {
  if (before === undefined || after === undefined) return undefined;
  const pids = after.lastPid - before.lastPid;
  if (pids < 0 || pids > MOST_PIDS_TO_READ || after.forks - before.forks > MOST_PIDS_TO_READ) return undefined;
  return { first: Math.max(1, before.lastPid + 1 - PIDS_IN_FLIGHT), last: after.lastPid };
}
