import { resolve } from "node:path";
import { loadConfigFile, type MCPServersConfig } from "../config-file/load-config-file.js";
import { readToolLock, TOOL_LOCK_FILE_NAME } from "../policy/lock-file.js";
import { needsServerAuth } from "../server-set/lazy-server-auth.js";
import { cliLoginHint } from "../server-set/login-hint.js";
import { createFileCacheStore, defaultCacheDirectory } from "../cache/file-cache-store.js";
import { MCPServerSet } from "../server-set.js";
import type { ServerSetConnectReport } from "../server-set/types.js";
import { defaultConfigPath, defaultConfigVariables } from "./default-config.js";
import type { MCPLogLevel, MCPServerLogEntry } from "@mcp-tool-adapter/adapter";
import { cliElicitationHandler } from "./elicitation-prompt.js";
import { chooseEngines } from "./engine-2026-loader.js";
import type { CliContext } from "./io.js";
import { startConnectProgress } from "./progress.js";

export interface ServerSelection {
  /** A config file; without one, the default config shipped with the package. */
  config?: string;
  /** Only these servers of the config. */
  servers?: readonly string[];
  connectTimeoutMs?: number;
  json: boolean;
  /** Asks every server for log messages of this level and above, and prints them on stderr. */
  logLevel?: MCPLogLevel;
  /** The tool lock file (default mcp-tools.lock.json in the working directory, used when it exists). */
  lock?: string;
  /** Connect without checking tools against the lock (what `pin` does). */
  ignoreLock?: boolean;
  /** Serve tool listings from the cross-process cache and keep it up to date (`call`, `tools`; off with --no-cache). */
  toolListCache?: boolean;
}

/** Where the lock file of this run is. */
export function lockPath(context: CliContext, selection: { lock?: string }): string {
  return resolve(context.cwd, selection.lock ?? TOOL_LOCK_FILE_NAME);
}

/** Reads the selected config (the shipped default when none is given). Throws MCPConfigFileError. */
export function loadSelectedConfig(context: CliContext, selection: ServerSelection): Promise<MCPServersConfig> {
  const servers =
    selection.servers === undefined || selection.servers.length === 0 ? {} : { servers: selection.servers };
  if (selection.config !== undefined)
    return loadConfigFile(selection.config, { cwd: context.cwd, env: context.env, ...servers });
  // The environment wins over the defaults, so MCP_MEMORY_FILE_PATH etc. can be overridden.
  return loadConfigFile(defaultConfigPath(), { env: { ...defaultConfigVariables(), ...context.env }, ...servers });
}

/**
 * Loads the config (or takes the one the command loaded already) and connects its servers,
 * showing progress; the caller must close() the set.
 */
export async function connectSelectedServers(
  context: CliContext,
  selection: ServerSelection,
  loaded?: MCPServersConfig,
): Promise<{ set: MCPServerSet; report: ServerSetConnectReport }> {
  const config = loaded ?? (await loadSelectedConfig(context, selection));
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
