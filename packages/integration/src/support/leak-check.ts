import { expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";

// tsx (loaded through NODE_OPTIONS to run these TypeScript steps) keeps an esbuild service
// process as our child for the whole run; it belongs to the runner, not to any scenario.
const RUNNER_PROCESS = /(?:^|\/)esbuild(?:\.exe)? --service=/u;

/**
 * Waits up to `timeoutMs` for every process a scenario started to exit; then kills what is
 * left and fails naming each one, so one leak does not spill into the next scenario.
 */
export function assertNoLeakedProcesses(timeoutMs = 5_000): Promise<void> {
  return expectNoLeakedProcesses({ timeoutMs, ignore: RUNNER_PROCESS });
}
