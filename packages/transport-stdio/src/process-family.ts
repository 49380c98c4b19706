import { StdioTransportError } from "./errors.js";
import { GroupFamily } from "./group-family.js";
import { canReadProcEnvironments, DEFAULT_PROC_ROOT } from "./proc-table.js";
import { ProcFamily, SERVER_TOKEN_ENV_VAR } from "./proc-family.js";
import type { ProcessFamily, ProcessFamilyStrategy } from "./process-family-types.js";
import { nodePlatform, type StdioPlatform } from "./platform.js";
import { WindowsFamily } from "./windows-family.js";

// The contract lives in a type file the strategies import; re-exported for this module's importers.
export type { FamilyMembers, ProcessFamily, ProcessFamilyStrategy } from "./process-family-types.js";

export const PROCESS_FAMILY_STRATEGIES: readonly ProcessFamilyStrategy[] = ["tagged", "group"];

/** Edges a test can point elsewhere; defaults are the real system. */
export interface ProcessFamilyEnvironment {
  platform?: NodeJS.Platform;
  procRoot?: string;
  /** Runs `taskkill` and checks pids on Windows (the real system by default). */
  host?: StdioPlatform;
}

/**
 * "tagged" where /proc can be read: the token finds every process that keeps its environment (an
 * `npx` launcher, its real server and their re-parented or daemonised children) and the server's
 * own process group every one that stays in it, without the new session "group" needs, whose
 * separate scheduling group made sequential round trips several times slower on a loaded machine
 * (see docs/transports.md). "group" elsewhere: without /proc the process group is all there is.
 */
export function defaultProcessFamily(system: ProcessFamilyEnvironment = {}): ProcessFamilyStrategy {
  return procSupported(system) ? "tagged" : "group";
}

/** Builds the family for one transport; throws PROCESS_FAMILY_UNSUPPORTED for a strategy this system cannot do. */
export function createProcessFamily(
  requested: ProcessFamilyStrategy | undefined,
  command: string,
  system: ProcessFamilyEnvironment = {},
): ProcessFamily {
  const strategy = requested ?? defaultProcessFamily(system);
  if (!PROCESS_FAMILY_STRATEGIES.includes(strategy)) {
    throw new StdioTransportError(
      "PROCESS_FAMILY_UNSUPPORTED",
      `Unknown processFamily ${JSON.stringify(strategy)} for MCP server "${command}". Use "tagged" or "group", or leave it unset (the default is "tagged" where /proc can be read, "group" elsewhere).`,
      { command },
    );
  }
  const procRoot = system.procRoot ?? DEFAULT_PROC_ROOT;
  if (strategy === "group") {
    if (procSupported(system)) return new ProcFamily(procRoot, { strategy });
    const host = system.host ?? nodePlatform;
    return (system.platform ?? host.name) === "win32" ? new WindowsFamily(host) : new GroupFamily();
  }
  if (!procSupported(system)) {
    throw new StdioTransportError(
      "PROCESS_FAMILY_UNSUPPORTED",
      `processFamily "tagged" needs to read process environments from ${system.procRoot ?? DEFAULT_PROC_ROOT} (Linux), which this system (${system.platform ?? process.platform}) does not allow, so MCP server "${command}" could not be tracked. Use processFamily "group", or leave it unset (the default here is "group").`,
      { command },
    );
  }
  return new ProcFamily(procRoot, { strategy });
}

export { SERVER_TOKEN_ENV_VAR };

function procSupported(system: ProcessFamilyEnvironment): boolean {
  return canReadProcEnvironments(system.procRoot ?? DEFAULT_PROC_ROOT, system.platform ?? process.platform);
}
