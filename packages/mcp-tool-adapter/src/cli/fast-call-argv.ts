import { MCP_LOG_LEVELS } from "@mcp-tool-adapter/core/protocol";
import type { MCPLogLevel } from "@mcp-tool-adapter/adapter";
import type { CallFlags } from "./command-flags.js";
import { positiveWholeNumber } from "./positive-whole-number.js";

/**
 * The `call` command line as the bin's fast path reads it: an exact scan, no argument parser.
 * Anything it does not know (another command, an unknown or repeated flag, `--help`, `--`,
 * bundled short flags, a second positional) or a value commander would reject makes it answer
 * undefined, and the normal path (commander) parses the line and reports what is wrong exactly
 * as before, with no server spawned.
 */
export interface FastCallArgv {
  /** `server/tool` as given. */
  readonly target: string;
  /** The part of `target` before the slash. */
  readonly server: string;
  /** The flags as commander would hand them to `call`'s action (a test holds the two to each other). */
  readonly flags: CallFlags;
}

/**
 * `call`'s flags, short and long, and whether each takes a value. A test holds this list to the
 * call command commander builds, so a new flag of `call` cannot be misread here.
 */
export const CALL_FLAGS: Readonly<Record<string, { readonly long: string; readonly takesValue: boolean }>> = {
  "--config": { long: "--config", takesValue: true },
  "-c": { long: "--config", takesValue: true },
  "--args": { long: "--args", takesValue: true },
  "-a": { long: "--args", takesValue: true },
  "--args-file": { long: "--args-file", takesValue: true },
  "-f": { long: "--args-file", takesValue: true },
  "--timeout": { long: "--timeout", takesValue: true },
  "-t": { long: "--timeout", takesValue: true },
  "--yes": { long: "--yes", takesValue: false },
  "-y": { long: "--yes", takesValue: false },
  "--lock": { long: "--lock", takesValue: true },
  "--no-cache": { long: "--no-cache", takesValue: false },
  "--json": { long: "--json", takesValue: false },
  "--connect-timeout": { long: "--connect-timeout", takesValue: true },
  "--log-level": { long: "--log-level", takesValue: true },
};

export function scanCallArgv(argv: readonly string[]): FastCallArgv | undefined {
  if (argv[0] !== "call") return undefined;
  const values = new Map<string, string>();
  const seen = new Set<string>();
  let target: string | undefined;
  for (let index = 1; index < argv.length; index += 1) {
    const token = argv[index] as string;
    if (!token.startsWith("-") || token === "-") {
      if (target !== undefined) return undefined;
      target = token;
      continue;
    }
    const equals = token.startsWith("--") ? token.indexOf("=") : -1;
    const name = equals === -1 ? token : token.slice(0, equals);
    const flag = Object.hasOwn(CALL_FLAGS, name) ? CALL_FLAGS[name] : undefined;
    if (flag === undefined || seen.has(flag.long)) return undefined;
    seen.add(flag.long);
    if (!flag.takesValue) {
      if (equals !== -1) return undefined;
      continue;
    }
    let value: string | undefined;
    if (equals !== -1) value = token.slice(equals + 1);
    else {
      index += 1;
      value = argv[index];
    }
    // A missing value, or one that looks like a flag, is commander's to report.
    if (value === undefined || (equals === -1 && value.startsWith("-"))) return undefined;
    values.set(flag.long, value);
  }
  const slash = target?.indexOf("/") ?? -1;
  if (target === undefined || slash <= 0 || slash === target.length - 1) return undefined;
  if (!commanderAccepts(values)) return undefined;
  return { target, server: target.slice(0, slash), flags: callFlags(values, seen) };
}

/** The flags as commander's parse gives them: camelCase names, numbers parsed, `cache` true unless `--no-cache`. */
function callFlags(values: ReadonlyMap<string, string>, seen: ReadonlySet<string>): CallFlags {
  const text = (flag: string): string | undefined => values.get(flag);
  const number = (flag: string): number | undefined => {
    const value = values.get(flag);
    return value === undefined ? undefined : positiveWholeNumber(value);
  };
  const given: CallFlags = {
    config: text("--config"),
    lock: text("--lock"),
    args: text("--args"),
    argsFile: text("--args-file"),
    timeout: number("--timeout"),
    connectTimeout: number("--connect-timeout"),
    logLevel: text("--log-level") as MCPLogLevel | undefined,
    json: seen.has("--json") ? true : undefined,
    yes: seen.has("--yes") ? true : undefined,
  };
  const flags = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as CallFlags;
  return { ...flags, cache: !seen.has("--no-cache") };
}

/** The value rules commander applies to `call`'s flags (argParser, choices, conflicts), from the same sources. */
function commanderAccepts(values: ReadonlyMap<string, string>): boolean {
  for (const flag of ["--timeout", "--connect-timeout"]) {
    const value = values.get(flag);
    if (value !== undefined && positiveWholeNumber(value) === undefined) return false;
  }
  const logLevel = values.get("--log-level");
  if (logLevel !== undefined && !(MCP_LOG_LEVELS as readonly string[]).includes(logLevel)) return false;
  return !(values.has("--args") && values.has("--args-file"));
}
