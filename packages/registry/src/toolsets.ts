import type { ConfigIssue } from "@mcp-tool-adapter/core";
import { RegistryError } from "./registry-error.js";

/**
 * Named subsets of a registry's tools: `{ research: ["github/search_*", "!github/delete_*", "memory/*"] }`.
 * Each pattern is `namespace/tool`, where either side is a glob (`*` any run of characters,
 * `?` one character); a pattern without `/` names a whole namespace (`"memory"` = `"memory/*"`);
 * a leading `!` excludes what it matches.
 */
export type Toolsets = Readonly<Record<string, readonly string[]>>;

/** Which tools a toolset lets through: a registry name (`"namespace/tool"`) in, yes or no out. */
export type ToolsetMatcher = (registryName: string) => boolean;

interface CompiledPattern {
  readonly exclude: boolean;
  readonly namespace: RegExp;
  readonly tool: RegExp;
}

/**
 * Why `pattern` is not a toolset pattern, or `undefined` when it is one. Used by the config-file
 * check and by {@link matchToolset}, so both accept exactly the same patterns.
 */
export function toolsetPatternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== "string") return "must be a string";
  const body = pattern.startsWith("!") ? pattern.slice(1) : pattern;
  if (body === "") return `"${pattern}" names no tool; write "namespace/tool" with * and ? as wildcards`;
  const parts = body.split("/");
  if (parts.length > 2) return `"${pattern}" has more than one "/"; write "namespace/tool" (a namespace holds no "/")`;
  if (parts.some((part) => part === ""))
    return `"${pattern}" has an empty side of "/"; write "namespace/*" for a whole namespace`;
  return undefined;
}

/**
 * The matcher of one toolset. A name is in the set when the last pattern that matches it is not
 * a negation; a name no pattern matches is out, except when the first pattern is a negation (a
 * list that starts with `!` means "every tool except ..."). So `["github/*", "!github/delete_*"]`
 * is GitHub without its delete tools, and `["!github/delete_*"]` is every tool but those.
 * Throws RegistryError `INVALID_TOOLSET` naming the first bad pattern.
 */
export function matchToolset(patterns: readonly string[]): ToolsetMatcher {
  const given: unknown = patterns; // JavaScript callers may pass anything
  if (!Array.isArray(given)) {
    throw new RegistryError(
      "INVALID_TOOLSET",
      `A toolset must be a list of "namespace/tool" patterns, got ${given === null ? "null" : typeof given}.`,
    );
  }
  const compiled = (given as unknown[]).map((pattern, index) => {
    const problem = toolsetPatternProblem(pattern);
    if (problem !== undefined) throw new RegistryError("INVALID_TOOLSET", `Toolset pattern ${index} ${problem}.`);
    return compilePattern(pattern as string);
  });
  const startsIncluded = compiled[0]?.exclude === true;
  return (registryName) => {
    const slash = registryName.indexOf("/");
    const namespace = slash < 0 ? registryName : registryName.slice(0, slash);
    const tool = slash < 0 ? "" : registryName.slice(slash + 1);
    let included = startsIncluded;
    for (const pattern of compiled) {
      if (pattern.namespace.test(namespace) && pattern.tool.test(tool)) included = !pattern.exclude;
    }
    return included;
  };
}

/**
 * The matcher of the toolset called `name` in `toolsets`. Throws RegistryError `UNKNOWN_TOOLSET`
 * naming the toolsets there are, or `INVALID_TOOLSET` for a bad pattern.
 */
export function selectToolset(toolsets: Toolsets | undefined, name: string): ToolsetMatcher {
  const known = toolsets === undefined ? [] : Object.keys(toolsets);
  if (toolsets === undefined || !Object.hasOwn(toolsets, name)) {
    throw new RegistryError(
      "UNKNOWN_TOOLSET",
      known.length === 0
        ? `No toolset "${name}": none are defined. Add "toolsets": { "${name}": ["server/tool_*"] } to the config (or pass toolsets in code).`
        : `No toolset "${name}"; the toolsets are ${known.map((known) => `"${known}"`).join(", ")}.`,
    );
  }
  try {
    return matchToolset(toolsets[name] as readonly string[]);
  } catch (error) {
    if (RegistryError.isInstance(error))
      throw new RegistryError("INVALID_TOOLSET", `Toolset "${name}": ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * Every problem of a `toolsets` value (an object of pattern lists), as config issues with JSON
 * pointers below `path` (`/research/1`). Empty when it is fine.
 */
export function findToolsetsIssues(value: unknown, path = ""): ConfigIssue[] {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return [{ path, message: 'must be an object of toolsets by name, each a list of "namespace/tool" patterns' }];
  const issues: ConfigIssue[] = [];
  for (const [name, patterns] of Object.entries(value)) {
    const at = `${path}/${escapePointer(name)}`;
    if (!Array.isArray(patterns)) {
      issues.push({ path: at, message: 'must be a list of "namespace/tool" patterns' });
      continue;
    }
    patterns.forEach((pattern: unknown, index) => {
      const problem = toolsetPatternProblem(pattern);
      if (problem !== undefined) issues.push({ path: `${at}/${index}`, message: problem });
    });
  }
  return issues;
}

function compilePattern(pattern: string): CompiledPattern {
  const exclude = pattern.startsWith("!");
  const body = exclude ? pattern.slice(1) : pattern;
  const slash = body.indexOf("/");
  const namespace = slash < 0 ? body : body.slice(0, slash);
  const tool = slash < 0 ? "*" : body.slice(slash + 1);
  return { exclude, namespace: globToRegExp(namespace), tool: globToRegExp(tool) };
}

function globToRegExp(glob: string): RegExp {
  let source = "";
  for (const character of glob) {
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else source += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "su");
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
