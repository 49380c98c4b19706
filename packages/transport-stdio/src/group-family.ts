import { canReadProcEnvironments, listRunningProcesses } from "./proc-table.js";
import type { FamilyMembers, ProcessFamily } from "./process-family-types.js";
import { isProcessGroupAlive, signalProcessGroup } from "./process-group.js";

/**
 * Where /proc cannot be read: the server leads a new session and process group (spawned
 * detached); the family is that group.
 */
export class GroupFamily implements ProcessFamily {
  readonly strategy = "group";
  readonly detached = process.platform !== "win32";
  readonly environment: Readonly<Record<string, string>> = {};
  #leaderPid: number | undefined;

  adopt(leaderPid: number): void {
    this.#leaderPid = leaderPid;
  }

  find(): FamilyMembers {
    return groupMembers(this.#leaderPid);
  }

  remember(): number[] {
    // The group is its own memory: a member that scrubbed its environment stays in it.
    return [];
  }
}

// The kernel keeps the group's id until its last member is gone, so the group is its own
// identity: nothing to rescan, nothing to remember beyond the leader's pid.
function groupMembers(pgid: number | undefined): FamilyMembers {
  const running = pgid !== undefined && isGroupRunning(pgid);
  return {
    empty: !running,
    pids: running ? [pgid] : [],
    signal(signal) {
      if (running) signalProcessGroup(pgid, signal);
    },
    stillRunning: () => groupMembers(pgid),
  };
}

/**
 * The kernel answers for a group as long as any member exists, zombies included. A re-parented
 * grandchild that died stays a zombie until PID 1 reaps it, and some container inits never do,
 * so where /proc can be read a group counts as running only while a member is not a zombie.
 */
function isGroupRunning(pgid: number): boolean {
  if (!isProcessGroupAlive(pgid)) return false;
  if (!canReadProcEnvironments()) return true;
  return listRunningProcesses().some((stat) => stat.pgid === pgid);
}
