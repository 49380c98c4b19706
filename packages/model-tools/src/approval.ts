import type { ToolCapabilities } from "@mcp-tool-adapter/registry";
import type { ModelTool } from "./model-tool-set.js";

/** What a policy decides on: anything with capabilities (a ModelTool, an adapter's ToolCallInfo, a RegisteredTool). */
export interface ApprovalSubject {
  readonly capabilities: ToolCapabilities;
}

/**
 * When a call waits for a person's approval: never; for every tool not known to be read-only
 * ("writes", the default the bridges use); only for tools that write destructively; or your function.
 * The one policy type of the project: the bridges, the umbrella's approval interceptor and the CLI
 * all decide with `needsApproval`. `Tool` is what a policy function receives (a ModelTool in the bridges).
 */
export type ApprovalPolicy<Tool extends ApprovalSubject = ModelTool> =
  "never" | "writes" | "destructive" | ((tool: Tool, args: Record<string, unknown>) => boolean | Promise<boolean>);

/**
 * Whether this call needs approval under `policy`. "writes" asks for every tool whose capabilities
 * do not say read-only (an unknown tool may write); "destructive" asks for tools that write and
 * are not known to be non-destructive (MCP's default for a writing tool is destructive).
 * A policy function that throws counts as "needs approval": failing closed.
 */
export async function needsApproval<Tool extends ApprovalSubject>(
  policy: ApprovalPolicy<Tool>,
  tool: Tool,
  args: Record<string, unknown>,
): Promise<boolean> {
  if (typeof policy === "function") {
    try {
      return await policy(tool, args);
    } catch {
      return true;
    }
  }
  const { capabilities } = tool;
  switch (policy) {
    case "never":
      return false;
    case "writes":
      return !capabilities.readOnly;
    case "destructive":
      return capabilities.destructive === true || (capabilities.writes && capabilities.destructive !== false);
    default:
      // An unknown policy string (plain JavaScript callers): fail closed.
      return true;
  }
}
