import { MCPConfigError } from "./errors.js";
import type { MCPToolFilter } from "./types.js";

/** A filter compiled once: exact names in a Set, glob patterns as one RegExp per list. */
export interface CompiledToolFilter {
  readonly source: MCPToolFilter | undefined;
  /** True when the filter lets every tool through (none given, or empty lists). */
  readonly keepsAll: boolean;
  matches(toolName: string): boolean;
}

interface NameMatcher {
  exact: ReadonlySet<string>;
  pattern: RegExp | undefined;
}

const GLOB_CHARS = /[*?]/;

function compileNames(names: readonly string[]): NameMatcher | undefined {
  if (names.length === 0) return undefined;
  const exact = new Set<string>();
  const globs: string[] = [];
  for (const name of names) {
    if (GLOB_CHARS.test(name)) globs.push(globToRegExpSource(name));
    else exact.add(name);
  }
  return { exact, pattern: globs.length === 0 ? undefined : new RegExp(`^(?:${globs.join("|")})$`, "u") };
}

function globToRegExpSource(glob: string): string {
  let source = "";
  for (const char of glob) {
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else source += char.replace(/[.+^${}()|[\]\\]/gu, "\\$&");
  }
  return source;
}

function matchesAny(matcher: NameMatcher, name: string): boolean {
  return matcher.exact.has(name) || (matcher.pattern?.test(name) ?? false);
}

const KEEP_ALL: CompiledToolFilter = Object.freeze({ source: undefined, keepsAll: true, matches: () => true });

/** Compiles include / exclude lists; a malformed filter is an MCPConfigError. */
export function compileToolFilter(filter: MCPToolFilter | null | undefined): CompiledToolFilter {
  if (filter === undefined || filter === null) return KEEP_ALL;
  if (typeof filter !== "object") {
    throw new MCPConfigError("Invalid tool filter: it must be an object with include / exclude lists.", [
      { path: "", message: "tool filter must be an object" },
    ]);
  }
  const include = compileNames(checkNames(filter.include, "include"));
  const exclude = compileNames(checkNames(filter.exclude, "exclude"));
  if (include === undefined && exclude === undefined) return { source: filter, keepsAll: true, matches: () => true };
  return {
    source: filter,
    keepsAll: false,
    matches(toolName) {
      if (exclude !== undefined && matchesAny(exclude, toolName)) return false;
      return include === undefined || matchesAny(include, toolName);
    },
  };
}

function checkNames(names: unknown, field: string): readonly string[] {
  if (names === undefined) return [];
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) {
    const message = `tool filter "${field}" must be an array of tool names or glob patterns`;
    throw new MCPConfigError(`Invalid tool filter: ${message}.`, [{ path: `/${field}`, message }]);
  }
  return names as string[];
}
