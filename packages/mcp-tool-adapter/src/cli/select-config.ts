import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { MCPLogLevel } from "@mcp-tool-adapter/adapter";
import { loadConfigFile, type MCPServersConfig } from "../config-file/load-config-file.js";
import { TOOL_LOCK_FILE_NAME } from "../policy/lock-file.js";
import { selectConfigSource } from "./config-source.js";
import type { CliContext } from "./io.js";

// What a command reads before it connects: light (no adapter, SDK or zod), so `call` can spawn
// its server right after reading the config.

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
  const source = selectConfigSource(context, selection.config);
  return loadConfigFile(source.file, { env: source.env, readFile: readTextNow, ...servers });
}

/**
 * The CLI reads its small local files synchronously: `call` does so while its server starts, and
 * fs.promises would start Node's thread pool (four threads) and wait on it for each step.
 */
function readTextNow(file: string): Promise<string> {
  return Promise.resolve(readFileSync(file, "utf8"));
}
