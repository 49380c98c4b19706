import type { FamilyMembers, ProcessFamily } from "./process-family-types.js";
import type { StdioPlatform } from "./platform.js";

/**
 * Windows has no process groups and no signals: the family is the server's process tree, which
 * `taskkill /T /F /PID <pid>` stops (every descendant, then the server; /F because console
 * programs without a window ignore the polite WM_CLOSE). Every signal means that. Descendants whose
 * parent already exited are outside the tree Windows knows, so a launcher (`npx.cmd`) must still
 * be running at close for its server to be reached: the transport closes before the server exits.
 */
export class WindowsFamily implements ProcessFamily {
  readonly strategy = "group";
  readonly detached = false;
  readonly environment: Readonly<Record<string, string>> = {};
  readonly #platform: StdioPlatform;
  #leaderPid: number | undefined;

  constructor(platform: StdioPlatform) {
    this.#platform = platform;
  }

  adopt(leaderPid: number): void {
    this.#leaderPid = leaderPid;
  }

  find(): FamilyMembers {
    return treeMembers(this.#leaderPid, this.#platform);
  }

  remember(): number[] {
    return [];
  }
}

function treeMembers(pid: number | undefined, platform: StdioPlatform): FamilyMembers {
  const running = pid !== undefined && platform.isRunning(pid);
  return {
    empty: !running,
    pids: running ? [pid] : [],
    signal() {
      if (!running) return;
      // spawn creates the process before it returns, so this works from the host's exit hook too.
      const taskkill = platform.spawn("taskkill", ["/T", "/F", "/PID", String(pid)], {
        stdio: "ignore",
        windowsHide: true,
      });
      // Already gone, or taskkill missing: nothing more to do, and no unhandled error event.
      taskkill.on("error", () => undefined);
      taskkill.unref();
    },
    stillRunning: () => treeMembers(pid, platform),
  };
}
