import { findToolsetsIssues, type Toolsets } from "@mcp-tool-adapter/registry";
import { MCPConfigFileError, describeIssue, type ConfigFileIssue } from "./errors.js";

/**
 * The file's top-level `toolsets` (named subsets of the servers' tools, beside `mcpServers`),
 * checked with the registry's own pattern rules; `undefined` when the file has none. Throws
 * MCPConfigFileError `CONFIG_FILE_INVALID` listing every bad pattern ("toolsets.research[1]").
 */
export function readToolsets(document: unknown, file: string): Toolsets | undefined {
  if (typeof document !== "object" || document === null || !("toolsets" in document)) return undefined;
  const { toolsets } = document;
  if (toolsets === undefined) return undefined;
  const issues = findToolsetsIssues(toolsets).map((issue): ConfigFileIssue => ({
    field: pointerToField(issue.path),
    message: issue.message,
  }));
  if (issues.length > 0) {
    throw new MCPConfigFileError(
      "CONFIG_FILE_INVALID",
      `Invalid config file ${file}: ${issues.map(describeIssue).join("; ")}. A toolset is a list of "namespace/tool" patterns, e.g. "toolsets": { "research": ["github/search_*", "!github/delete_*", "memory/*"] }.`,
      { file, issues },
    );
  }
  // Checked: an object of string lists. Copied so the caller's document is not shared.
  return Object.fromEntries(
    Object.entries(toolsets as Record<string, string[]>).map(([name, patterns]) => [name, [...patterns]]),
  );
}

/** "" -> "toolsets", "/research/1" -> "toolsets.research[1]". */
function pointerToField(pointer: string): string {
  const segments = pointer === "" ? [] : pointer.slice(1).split("/");
  return segments
    .map((segment) => segment.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce((field, segment) => (/^\d+$/.test(segment) ? `${field}[${segment}]` : `${field}.${segment}`), "toolsets");
}
