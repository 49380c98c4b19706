import type { MCPServersConfig } from "../config-file/load-config-file.js";
import { readToolLock } from "../policy/lock-file.js";
import { needsServerAuth } from "../server-set/lazy-server-auth.js";
import { cliLoginHint } from "../server-set/login-hint.js";
import { createFileCacheStore, defaultCacheDirectory } from "../cache/file-cache-store.js";
import { MCPServerSet } from "../server-set.js";
import type { ServerSetConnectReport } from "../server-set/types.js";
import type { MCPServerLogEntry } from "@mcp-tool-adapter/adapter";
import { cliElicitationHandler } from "./elicitation-prompt.js";
import { chooseEngines } from "./engine-2026-loader.js";
import type { EarlyServer } from "./early-server.js";
import type { CliContext } from "./io.js";
import { startConnectProgress } from "./progress.js";
import { loadSelectedConfig, lockPath, type ServerSelection } from "./select-config.js";

export type { ServerSelection } from "./select-config.js";

// Here too for the commands that connect anyway; their light home is for `call`, which reads the config first.
export { loadSelectedConfig, lockPath } from "./select-config.js";

/**
 * Loads the config (or takes the one the command loaded already) and connects its servers,
 * showing progress; the caller must close() the set. A server the command started early is
 * handed to the set, or stopped when the set did not take it (a failure before its connect).
 */
export async function connectSelectedServers(
  context: CliContext,
  selection: ServerSelection,
  loaded?: MCPServersConfig,
  early?: EarlyServer,
): Promise<{ set: MCPServerSet; report: ServerSetConnectReport }> {
  try {
    return await connectServers(context, selection, loaded ?? (await loadSelectedConfig(context, selection)), early);
  } finally {
    await early?.release();
  }
}

async function connectServers(
  context: CliContext,
  selection: ServerSelection,
  config: MCPServersConfig,
  early: EarlyServer | undefined,
): Promise<{ set: MCPServerSet; report: ServerSetConnectReport }> {
  const { logLevel } = selection;
  const lock = selection.ignoreLock === true ? undefined : await readToolLock(lockPath(context, selection));
  const servers =
    logLevel === undefined
      ? config.servers
      : Object.fromEntries(Object.entries(config.servers).map(([name, entry]) => [name, { ...entry, logLevel }]));
  const loginHint = (server: string): string => cliLoginHint(server, selection.config);
  // Only HTTP entries authorize: a set of stdio servers never loads the OAuth code.
  const auth = Object.values(servers).some(needsServerAuth)
    ? (await import("./cli-auth-options.js")).cliAuthOptions(context, loginHint)
    : { loginHint };
  // An engine given in the IO speaks for every server; otherwise engine-2026 for the entries that want it, when installed.
  const engine = context.engine ?? (await chooseEngines(servers, context.cwd, context.loadEngine2026, { loginHint }));
  const set = new MCPServerSet(servers, {
    clientFeatures: {
      onElicitation: cliElicitationHandler(context),
      ...(logLevel === undefined
        ? {}
        : { onLog: (entry: MCPServerLogEntry) => context.err(formatLog(context, entry)) }),
    },
    ...(context.adapterFactory === undefined ? {} : { adapterFactory: context.adapterFactory }),
    ...(engine === undefined ? {} : { engine }),
    ...(early === undefined ? {} : { transport: early.transportChoice }),
    ...(lock === undefined ? {} : { pinning: { lock } }),
    ...(selection.toolListCache === true
      ? { toolListCache: { store: createFileCacheStore({ directory: defaultCacheDirectory(context.env) }) } }
      : {}),
    ...(selection.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: selection.connectTimeoutMs }),
    ...(context.now === undefined ? {} : { now: context.now }),
    auth,
  });
  const progress = await startConnectProgress(context, set.serverNames, { json: selection.json });
  try {
    const report = await set.connect({ onServerResult: (result) => progress.serverDone(result) });
    progress.stop();
    if (lock !== undefined) printPinFindings(context, set);
    return { set, report };
  } finally {
    progress.stop();
  }
}

/** Every tool that did not match the lock, on stderr: withheld ones in red, warnings in yellow. */
function printPinFindings(context: CliContext, set: MCPServerSet): void {
  for (const name of set.serverNames) {
    for (const finding of set.getAdapter(name)?.pinFindings ?? []) {
      const paint = finding.action === "withheld" ? context.colors.red : context.colors.yellow;
      context.err(paint(`${finding.action === "withheld" ? "✖" : "!"} ${finding.message}`));
    }
  }
}

function formatLog(context: CliContext, entry: MCPServerLogEntry): string {
  const text = typeof entry.data === "string" ? entry.data : JSON.stringify(entry.data);
  const line = `[${entry.serverName}] ${entry.level}${entry.logger === undefined ? "" : ` ${entry.logger}`}: ${text}`;
  return context.colors.dim(line);
}
