import type { MCPEngineRequestContext, MCPRelatedCall } from "@mcp-tool-adapter/core";

/**
 * What the adapter tags each tool call's request with (MCPEngineRequestOptions.tag): the call's
 * own record, which exists anyway, so a call pays for no tag object; the MCPRelatedCall a handler
 * sees is made from it only when a server's request comes back linked to the call (rare).
 */
export interface RelatedCallTag {
  readonly name: string;
  readonly options: { readonly caller?: unknown };
}

/** The tool call a server's request belongs to, when the engine handed back a tool call's tag (the adapter tags only those). */
export function relatedCallOf(context: MCPEngineRequestContext): MCPRelatedCall | undefined {
  const tag = context.relatedTag as RelatedCallTag | undefined;
  return tag === undefined ? undefined : { tool: tag.name, caller: tag.options.caller };
}
