import { loadConfigFile, type MCPServersConfig } from "../config-file/load-config-file.js";
import { MCPServerSet } from "../server-set.js";
import type { ServerSetConnectReport } from "../server-set/types.js";
import { DEFAULT_CONFIG_PATH, defaultConfigVariables } from "./default-config.js";
import type { CliContext } from "./io.js";
import { startConnectProgress } from "./progress.js";

export interface ServerSelection {
  /** A config file; without one, the default config shipped with the package. */
  config?: string;
  /** Only these servers of the config. */
  servers?: readonly string[];
  connectTimeoutMs?: number;
  json: boolean;
}

/** Reads the selected config (the shipped default when none is given). Throws MCPConfigFileError. */
export function loadSelectedConfig(context: CliContext, selection: ServerSelection): Promise<MCPServersConfig> {
  const servers = selection.servers === undefined || selection.servers.length === 0 ? {} : { servers: selection.servers };
  if (selection.config !== undefined) return loadConfigFile(selection.config, { cwd: context.cwd, env: context.env, ...servers });
  // The environment wins over the defaults, so MCP_MEMORY_FILE_PATH etc. can be overridden.
  return loadConfigFile(DEFAULT_CONFIG_PATH, { env: { ...defaultConfigVariables(), ...context.env }, ...servers });
}

/** Loads the config and connects its servers, showing progress; the caller must close() the set. */
export async function connectSelectedServers(context: CliContext, selection: ServerSelection): Promise<{ set: MCPServerSet; report: ServerSetConnectReport }> {
  const config = await loadSelectedConfig(context, selection);
  const set = new MCPServerSet(config.servers, {
    ...(context.adapterFactory === undefined ? {} : { adapterFactory: context.adapterFactory }),
    ...(selection.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: selection.connectTimeoutMs }),
    ...(context.now === undefined ? {} : { now: context.now }),
  });
  const progress = await startConnectProgress(context, set.serverNames, { json: selection.json });
  try {
    const report = await set.connect({ onServerResult: (result) => progress.serverDone(result) });
    return { set, report };
  } finally {
    progress.stop();
  }
}
