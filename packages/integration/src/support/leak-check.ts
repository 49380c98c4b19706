import { listOwnedProcesses, type ProcessInfo } from "@mcp-tool-adapter/test-servers";

// tsx (loaded through NODE_OPTIONS to run these TypeScript steps) keeps an esbuild service
// process as our child for the whole run; it belongs to the runner, not to any scenario.
const RUNNER_PROCESS = /(?:^|\/)esbuild(?:\.exe)? --service=/u;

function leftovers(): ProcessInfo[] {
  return listOwnedProcesses().filter((info) => !RUNNER_PROCESS.test(info.cmdline));
}

/**
 * Waits up to `timeoutMs` for every process a scenario started to exit; then kills what is
 * left and fails naming each one, so one leak does not spill into the next scenario.
 */
export async function assertNoLeakedProcesses(timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let left = leftovers();
  while (left.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    left = leftovers();
  }
  if (left.length === 0) return;
  for (const info of left) {
    try {
      process.kill(info.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  const list = left.map((info) => `  pid ${info.pid} (ppid ${info.ppid}, pgid ${info.pgid}): ${info.cmdline}`).join("\n");
  throw new Error(`${left.length} server process(es) still running after the scenario's cleanup (now killed):\n${list}`);
}
