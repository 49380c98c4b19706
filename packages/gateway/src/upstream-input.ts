import type { MCPInputRequired } from "@mcp-tool-adapter/adapter";
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type InputRequests,
} from "@modelcontextprotocol/server";
import { failure } from "./gateway-requests.js";
import type { RequestStateSeal, SealedCall } from "./request-state-seal.js";

// A 2026-07-28 upstream's own input_required, passed on to a 2026-07-28 client statelessly: the
// questions as they came, the retry's needs sealed into the requestState (see RequestStateSeal).

/** Which client capability each request an upstream may embed in its input_required needs. */
const INPUT_CAPABILITY: Readonly<Record<string, "elicitation" | "sampling" | "roots">> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * The upstream's questions for the client, with a sealed requestState: nothing waits in this copy.
 * A question the client did not declare the capability for ends the call with the refusal that
 * says so, as on 2025.
 */
export function passUpstreamInput(
  seal: RequestStateSeal,
  passed: {
    readonly server: string;
    readonly tool: string;
    readonly input: MCPInputRequired;
    readonly capabilities: ClientCapabilities | undefined;
  },
): CallToolResult | InputRequiredResult {
  const { server, tool, input, capabilities } = passed;
  for (const request of Object.values(input.inputRequests)) {
    const method = (request as { method?: unknown } | null)?.method;
    const capability = typeof method === "string" ? INPUT_CAPABILITY[method] : undefined;
    if (capability !== undefined && capabilities?.[capability] === undefined) {
      return failure(
        `MCP server "${server}" asked for ${capability}, but the gateway's client did not declare the ${capability} capability.`,
      );
    }
  }
  return inputRequired({
    inputRequests: input.inputRequests as InputRequests,
    requestState: seal.seal({ server, tool, upstreamState: input.requestState }),
  });
}

/**
 * A retry must call the tool its sealed state was issued for, and that name must still lead to the
 * same upstream (`server` undefined: it leads to none now, which the caller answers as an unknown
 * tool); otherwise REQUEST_STATE_MISMATCH.
 */
export function checkSealedRetry(sealed: SealedCall, retry: { tool: string; server: string | undefined }): void {
  if (sealed.tool === retry.tool && (retry.server === undefined || retry.server === sealed.server)) return;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `This requestState belongs to a call of "${sealed.tool}", but the retry calls "${retry.tool}"; retry the same tool with the same arguments.`,
    { code: "REQUEST_STATE_MISMATCH", reason: "invalid_request_state" },
  );
}
