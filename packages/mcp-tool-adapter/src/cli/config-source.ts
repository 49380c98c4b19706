import { resolve } from "node:path";
import type { EnvMap } from "../config-file/expand-env.js";
import { defaultConfigPath, defaultConfigVariables } from "./default-config.js";

/** Which config file a command reads and where its `${VAR}` references are looked up. */
export interface ConfigSource {
  /** Absolute path of the file. */
  readonly file: string;
  readonly env: EnvMap;
}

/**
 * The one rule for which file a command reads: `--config` (relative to the working directory),
 * else the default config shipped with the package. Light (node builtins only), so the bin's
 * fast path and the commands share it.
 */
export function selectConfigSource(where: { cwd: string; env: EnvMap }, config: string | undefined): ConfigSource {
  if (config !== undefined) return { file: resolve(where.cwd, config), env: where.env };
  // The environment wins over the defaults, so MCP_MEMORY_FILE_PATH etc. can be overridden.
  return { file: defaultConfigPath(), env: { ...defaultConfigVariables(), ...where.env } };
}
