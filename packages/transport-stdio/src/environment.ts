import { DEFAULT_INHERITED_ENV_VARS } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StdioServerConfig } from "./config.js";

/**
 * The environment a server starts with: the SDK's safe defaults (HOME, LOGNAME, PATH, SHELL,
 * TERM, USER on POSIX), then whatever `inheritEnv` asks for, then `env`. Secrets in the host's
 * environment reach the server only when the config names them.
 */
export function buildServerEnvironment(
  config: Pick<StdioServerConfig, "env" | "inheritEnv">,
  parentEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of DEFAULT_INHERITED_ENV_VARS) {
    const value = parentEnv[name];
    // Same rule as the SDK: a value starting with "()" is an exported shell function, a known injection vector.
    if (value !== undefined && !value.startsWith("()")) environment[name] = value;
  }
  const inherited =
    config.inheritEnv === true ? Object.keys(parentEnv) : config.inheritEnv === false ? [] : (config.inheritEnv ?? []);
  for (const name of inherited) {
    const value = parentEnv[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...config.env };
}
