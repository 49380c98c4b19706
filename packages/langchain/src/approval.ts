import { needsApproval, type ApprovalPolicy } from "@mcp-tool-adapter/model-tools";
import type { MCPStructuredTool } from "./langchain-tools.js";

/**
 * Which tools `humanInTheLoopMiddleware({ interruptOn })` of `langchain` should stop at, decided
 * from the tools' capabilities: by default ("writes") every tool that writes. A policy function
 * is asked with empty arguments (the middleware decides per tool, not per call).
 */
export async function approvalInterruptOn(
  tools: readonly MCPStructuredTool[],
  policy: ApprovalPolicy = "writes",
): Promise<Record<string, boolean>> {
  const decisions = await Promise.all(
    tools.map(async (tool) => [tool.name, await needsApproval(policy, tool.modelTool, {})] as const),
  );
  return Object.fromEntries(decisions);
}
