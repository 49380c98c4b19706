import type { MCPToolResult } from "../types.js";

/**
 * How servers say they do not know a tool: a JSON-RPC error (low-level SDK servers: -32602 "Tool x
 * not found") or an isError result carrying that message (the SDK's McpServer), or "Unknown tool".
 */
const UNKNOWN_TOOL = /\btool\b[^\n]{0,200}?\b(?:not found|unknown|does not exist)\b|\bunknown tool\b/i;

/**
 * Whether a failed call reads as "the server has no such tool". Only asked about calls made from a
 * listing the cross-process cache served, where a false alarm costs one tools/list.
 */
export function saysToolUnknown(result: MCPToolResult): boolean {
  return !result.success && result.errorKind === "server_error" && UNKNOWN_TOOL.test(result.error ?? "");
}
