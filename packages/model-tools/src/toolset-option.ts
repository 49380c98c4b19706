import { matchToolset, selectToolset, type ToolsetMatcher, type Toolsets } from "@mcp-tool-adapter/registry";

/**
 * A toolset as an option: its patterns (`["github/search_*", "!github/delete_*", "memory/*"]`),
 * or one of a config file's `toolsets` by name (`{ name: "research", toolsets: config.toolsets }`).
 * The pattern rules are the registry's `matchToolset`.
 */
export type ToolsetOption = readonly string[] | { readonly name: string; readonly toolsets: Toolsets | undefined };

/**
 * The matcher of a toolset option, or `undefined` when none is given. Throws RegistryError
 * `UNKNOWN_TOOLSET` (naming the known ones) or `INVALID_TOOLSET`.
 */
export function toolsetMatcher(option: ToolsetOption | undefined): ToolsetMatcher | undefined {
  if (option === undefined) return undefined;
  if (Array.isArray(option)) return matchToolset(option as readonly string[]);
  const { name, toolsets } = option as { name: string; toolsets: Toolsets | undefined };
  return selectToolset(toolsets, name);
}
