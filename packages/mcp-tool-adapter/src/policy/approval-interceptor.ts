import type { ToolCallInfo, ToolCallInterceptor } from "@mcp-tool-adapter/adapter";
import { describeCause } from "@mcp-tool-adapter/core";
import type { ApprovalPolicy, needsApproval as NeedsApproval } from "@mcp-tool-adapter/model-tools";

export interface ApprovalInterceptorOptions {
  /** Which calls need approval; the same policy type the bridges take. Default "writes". */
  policy?: ApprovalPolicy<ToolCallInfo>;
  /** Asks a person (or a rule) and answers true to let the call go. Its signal aborts when the time is up. */
  approve: (call: ToolCallInfo) => boolean | Promise<boolean>;
  /** How long `approve` may take. Default 300000 (five minutes: a person is answering). */
  timeoutMs?: number;
}

const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

let policyCheck: Promise<typeof NeedsApproval> | undefined;

/** model-tools' policy check, imported at the first call that asks: the umbrella's import stays without it. */
function loadPolicyCheck(): Promise<typeof NeedsApproval> {
  policyCheck ??= import("@mcp-tool-adapter/model-tools").then((modelTools) => modelTools.needsApproval);
  return policyCheck;
}

/**
 * An interceptor that asks before calls the policy selects and refuses those not approved
 * (errorKind "refused"). A policy or approve function that throws or times out fails the call
 * ("interceptor_failed"): without an answer nothing is sent.
 */
export function createApprovalInterceptor(options: ApprovalInterceptorOptions): ToolCallInterceptor {
  const policy = options.policy ?? "writes";
  return {
    name: "approval",
    timeoutMs: options.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
    async beforeCall(call) {
      const needsApproval = await loadPolicyCheck();
      if (!(await needsApproval(policy, call, call.arguments))) return undefined;
      let approved: boolean;
      try {
        approved = await options.approve(call);
      } catch (error) {
        return { refuse: `approval could not be asked for (${describeCause(error)})` };
      }
      return approved ? undefined : { refuse: `not approved (${describePolicy(policy)})` };
    },
  };
}

function describePolicy(policy: ApprovalPolicy<ToolCallInfo>): string {
  if (policy === "writes") return "the policy asks before tools that may write";
  if (policy === "destructive") return "the policy asks before destructive tools";
  return "the policy asked for approval";
}
