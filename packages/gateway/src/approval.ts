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

/** What the policy says of one call: it may go, it is refused (with the words why), or the user must be asked this. */
export type ApprovalStep =
  | { readonly kind: "go" }
  | { readonly kind: "refused"; readonly reason: string }
  | { readonly kind: "ask"; readonly request: ElicitRequestFormParams };

/**
 * The policy's decision for a call, before anyone is asked: both eras use it (a 2025 session asks
 * through an elicitation request, a 2026-07-28 request through an `input_required` result).
 */
export async function approvalStep(request: {
  approval: GatewayApproval | undefined;
  tool: CatalogTool;
  args: Record<string, unknown>;
  clientDeclaresElicitation: boolean;
}): Promise<ApprovalStep> {
  const { approval, tool, args } = request;
  if (approval === undefined) return { kind: "go" };
  const policy = approval.policy ?? "writes";
  const needed = await needsApproval(policy, tool, args);
  if (typeof policy !== "function") rememberDecision(approval, tool, needed);
  if (!needed) return { kind: "go" };
  const name = `${tool.server}/${tool.upstreamName}`;
  if (approval.mode === "refuse")
    return {
      kind: "refused",
      reason: `The gateway refused "${tool.exposedName}" (${name}): its policy does not let tools that may write run without approval.`,
    };
  if (!request.clientDeclaresElicitation)
    return {
      kind: "refused",
      reason: `"${tool.exposedName}" (${name}) needs approval and this client did not declare elicitation, so the gateway cannot ask: the call was not sent.`,
    };
  return {
    kind: "ask",
    request: {
      mode: "form",
      message: `Allow the tool "${tool.exposedName}" (${name}) to run with ${JSON.stringify(args)}? It may change data.`,
      requestedSchema: { type: "object", properties: {} },
    },
  };
}

/**
 * The decisions of a named policy ("writes", "destructive", "never"), which depend on the tool
 * alone, per catalog tool: a list change or a pin change builds a new catalog with new tool
 * objects, so a decision never outlives the definition it was made for. Function policies see the
 * arguments and are asked every call.
 */
const decisions = new WeakMap<GatewayApproval, WeakMap<CatalogTool, boolean>>();

function rememberDecision(approval: GatewayApproval, tool: CatalogTool, needed: boolean): void {
  let byTool = decisions.get(approval);
  if (byTool === undefined) {
    byTool = new WeakMap();
    decisions.set(approval, byTool);
  }
  byTool.set(tool, needed);
}

/** True when the policy already said this tool needs no approval: the call goes without a look at the policy. */
export function knownNotToNeedApproval(approval: GatewayApproval | undefined, tool: CatalogTool): boolean {
  return approval === undefined || decisions.get(approval)?.get(tool) === false;
}

/** The user's answer to an approval question, as the refusal to send (undefined: approved). */
export function approvalAnswer(tool: CatalogTool, answer: Pick<ElicitResult, "action">): string | undefined {
  if (answer.action === "accept") return undefined;
  return `The user did not approve "${tool.exposedName}" (${answer.action}): the call was not sent.`;
}

/** Undefined when the call may go; otherwise why not, in words for the downstream client. */
export async function approveCall(request: {
  approval: GatewayApproval | undefined;
  tool: CatalogTool;
  args: Record<string, unknown>;
  session: ApprovingClient;
  signal: AbortSignal;
}): Promise<string | undefined> {
  const { tool, session, signal } = request;
  const step = await approvalStep({ ...request, clientDeclaresElicitation: session.declares("elicitation") });
  if (step.kind === "go") return undefined;
  if (step.kind === "refused") return step.reason;
  try {
    return approvalAnswer(tool, await session.elicit(step.request, signal));
  } catch (error) {
    return `Approval for "${tool.exposedName}" could not be asked for (${describeCause(error)}): the call was not sent.`;
  }
}
