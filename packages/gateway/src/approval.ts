import { needsApproval, type ApprovalPolicy } from "@mcp-tool-adapter/model-tools";
import { describeCause } from "@mcp-tool-adapter/core";
import type { CatalogTool } from "./catalog.js";
import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * Approval in front of the upstream servers: which calls need it (model-tools' one policy type:
 * "writes" asks before every tool not known to be read-only) and how it is asked: `elicit` asks the
 * downstream client's user through MCP elicitation (a client that did not declare elicitation gets
 * a refusal saying so), `refuse` turns every such call away.
 */
export interface GatewayApproval {
  policy?: ApprovalPolicy<CatalogTool>;
  mode: "elicit" | "refuse";
}

/** The downstream client asked: what approval needs of a session. */
export interface ApprovingClient {
  declares(capability: "elicitation"): boolean;
  elicit(request: ElicitRequestFormParams, signal: AbortSignal): Promise<ElicitResult>;
}

/** Undefined when the call may go; otherwise why not, in words for the downstream client. */
export async function approveCall(request: {
  approval: GatewayApproval | undefined;
  tool: CatalogTool;
  args: Record<string, unknown>;
  session: ApprovingClient;
  signal: AbortSignal;
}): Promise<string | undefined> {
  const { approval, tool, args, session, signal } = request;
  if (approval === undefined) return undefined;
  const policy = approval.policy ?? "writes";
  if (!(await needsApproval(policy, tool, args))) return undefined;
  const name = `${tool.server}/${tool.upstreamName}`;
  if (approval.mode === "refuse")
    return `The gateway refused "${tool.exposedName}" (${name}): its policy does not let tools that may write run without approval.`;
  if (!session.declares("elicitation"))
    return `"${tool.exposedName}" (${name}) needs approval and this client did not declare elicitation, so the gateway cannot ask: the call was not sent.`;
  try {
    const answer = await session.elicit(
      {
        mode: "form",
        message: `Allow the tool "${tool.exposedName}" (${name}) to run with ${JSON.stringify(args)}? It may change data.`,
        requestedSchema: { type: "object", properties: {} },
      },
      signal,
    );
    if (answer.action === "accept") return undefined;
    return `The user did not approve "${tool.exposedName}" (${answer.action}): the call was not sent.`;
  } catch (error) {
    return `Approval for "${tool.exposedName}" could not be asked for (${describeCause(error)}): the call was not sent.`;
  }
}
