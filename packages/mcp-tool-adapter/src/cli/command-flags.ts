import type { MCPLogLevel } from "@mcp-tool-adapter/adapter";
import type { CallCommandOptions } from "./commands/call.js";

/** The flags every command may take, as commander names them (camelCase, parsed values). */
export interface CommonFlags {
  config?: string;
  lock?: string;
  json?: boolean;
  connectTimeout?: number;
  logLevel?: MCPLogLevel;
  /** `--no-cache` makes it false; undefined for commands without the option. */
  cache?: boolean;
}

/** `call`'s flags as commander hands them to its action (and the bin's fast scan builds them). */
export interface CallFlags extends CommonFlags {
  args?: string;
  argsFile?: string;
  timeout?: number;
  yes?: boolean;
}

/** The options of a command's run function from its common flags. */
export function commonOptions(flags: CommonFlags): {
  config?: string;
  lock?: string;
  json: boolean;
  connectTimeoutMs?: number;
  logLevel?: MCPLogLevel;
  toolListCache?: boolean;
} {
  return {
    // Only commands with --no-cache have the flag (true unless given): the others never cache.
    ...(flags.cache === undefined ? {} : { toolListCache: flags.cache }),
    json: flags.json === true,
    ...(flags.logLevel === undefined ? {} : { logLevel: flags.logLevel }),
    ...(flags.config === undefined ? {} : { config: flags.config }),
    ...(flags.lock === undefined ? {} : { lock: flags.lock }),
    ...(flags.connectTimeout === undefined ? {} : { connectTimeoutMs: flags.connectTimeout }),
  };
}

/** runCallCommand's options for `call <target>` with these flags: commander's action and the fast route both use it. */
export function callCommandOptions(target: string, flags: CallFlags): CallCommandOptions {
  return {
    ...commonOptions(flags),
    target,
    yes: flags.yes === true,
    ...(flags.args === undefined ? {} : { args: flags.args }),
    ...(flags.argsFile === undefined ? {} : { argsFile: flags.argsFile }),
    ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
  };
}
