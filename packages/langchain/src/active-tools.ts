import { MCPStructuredTool } from "./langchain-tools.js";

/**
 * The tools a model call should be bound to: every tool of ours whose registry tool `isActive`
 * accepts (with tool search: `search.isActive`, the meta-tools, pinned and loaded tools), and
 * every other tool as it is. LangChain's agent fixes its tools (the ToolNode) up front, so give
 * `createAgent` the search's `catalog` converted once, and narrow each model call with this in a
 * `wrapModelCall` middleware.
 */
export function activeLangChainTools<Tool>(
  tools: readonly Tool[],
  isActive: (registryName: string) => boolean,
): Tool[] {
  return tools.filter((tool) => !(tool instanceof MCPStructuredTool) || isActive(tool.modelTool.registryName));
}
