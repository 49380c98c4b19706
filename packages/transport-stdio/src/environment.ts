import type { StdioServerConfig } from "./config.js";
import { envKey } from "./platform.js";

/**
 * The host variables every server gets, per platform: the same lists as the MCP SDK's
 * `DEFAULT_INHERITED_ENV_VARS` (which holds only the list of the platform it runs on; a test checks
 * they agree), kept here so the Windows rules can be applied, and tested, on any host.
 */
export const INHERITED_ENV_VARS: Readonly<Record<"posix" | "win32", readonly string[]>> = {
  posix: ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"],
  win32: [
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PROCESSOR_ARCHITECTURE",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
    "PROGRAMFILES",
  ],
};

/**
 * The environment a server starts with: the SDK's safe defaults (HOME, LOGNAME, PATH, SHELL,
 * TERM, USER on POSIX; APPDATA, PATH, SYSTEMROOT, TEMP, USERPROFILE and the like on Windows), then
 * whatever `inheritEnv` asks for, then `env`. Secrets in the host's environment reach the server
 * only when the config names them. On Windows names are case-insensitive: the host's `Path` is
 * inherited as `PATH` asks, keeps its spelling, and an `env` entry `PATH` replaces it instead of
 * standing beside it (two spellings of one name would leave the child to pick one).
 */
export function buildServerEnvironment(
  config: Pick<StdioServerConfig, "env" | "inheritEnv">,
  parentEnv: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  // A Map keeps insertion order and lets a name of another spelling be replaced, not duplicated.
  const environment = new Map<string, string>();
  const put = (name: string, value: string): void => {
    const existing = envKey(Object.fromEntries(environment), name, platform);
    if (existing !== undefined) environment.delete(existing);
    environment.set(name, value);
  };
  const inherit = (name: string, skipShellFunctions: boolean): void => {
    const key = envKey(parentEnv, name, platform);
    const value = key === undefined ? undefined : parentEnv[key];
    // Same rule as the SDK: a value starting with "()" is an exported shell function, a known injection vector.
    if (key !== undefined && value !== undefined && !(skipShellFunctions && value.startsWith("()"))) put(key, value);
  };
  for (const name of INHERITED_ENV_VARS[platform === "win32" ? "win32" : "posix"]) inherit(name, true);
  const inherited =
    config.inheritEnv === true ? Object.keys(parentEnv) : config.inheritEnv === false ? [] : (config.inheritEnv ?? []);
  for (const name of inherited) inherit(name, false);
  for (const [name, value] of Object.entries(config.env ?? {})) put(name, value);
  return Object.fromEntries(environment);
}
