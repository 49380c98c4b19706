import { MCPProtocolError, type MCPEngineRequestContext, type MCPEngineRequestHandler } from "@mcp-tool-adapter/core";
import { isAnsweredRequest, MCP_ANSWERED_REQUESTS } from "@mcp-tool-adapter/core/protocol";
import { RpcCode } from "../rpc-error.js";
import type * as ChecksModule from "./client-request-checks.js";
import type { IncomingRequest } from "./json-rpc-shapes.js";

/**
 * Server-to-client requests: rare, so their params and answers are checked with SDK 1.x's own
 * schemas, in the order SDK 1.x's Client checks them, and fail with the same JSON-RPC codes. The
 * checks (and the schemas) are loaded with the first request, not with the adapter.
 */

type Checks = typeof ChecksModule;

let checks: Promise<Checks> | undefined;

function loadChecks(): Promise<Checks> {
  checks ??= import("./client-request-checks.js");
  return checks;
}

type Answer = (request: IncomingRequest, context: MCPEngineRequestContext) => Promise<unknown>;

/**
 * The answer to each server-to-client method this connection handles: `ping`, and each of the
 * host's handlers whose method the engine knows and whose capability the client declared.
 */
export function clientRequestAnswers(
  handlers: Readonly<Record<string, MCPEngineRequestHandler>>,
  capabilities: Readonly<Record<string, unknown>>,
): Map<string, Answer> {
  const answers = new Map<string, Answer>([["ping", () => Promise.resolve({})]]);
  for (const [method, handler] of Object.entries(handlers)) {
    // Core's list of answerable requests; each is checked against its SDK schema (a failure is an internal error, as in the SDK).
    if (!isAnsweredRequest(method)) continue;
    const capability = MCP_ANSWERED_REQUESTS[method];
    if (capabilities[capability] === undefined) {
      throw new Error(`Client does not support ${capability} capability (required for ${method})`);
    }
    answers.set(method, async (request, context) => {
      const { checkedParams, checkedAnswer } = await loadChecks();
      const params = checkedParams(method, request);
      if (method === "elicitation/create") params.mode ??= "form";
      checkBeforeHandling(method, params, capabilities);
      const result: unknown = await handler(params, context);
      return checkedAnswer(method, params, result);
    });
  }
  return answers;
}

function checkBeforeHandling(
  method: string,
  params: Record<string, unknown>,
  capabilities: Readonly<Record<string, unknown>>,
): void {
  if (method !== "elicitation/create") return;
  const declared = capabilities.elicitation as { form?: unknown; url?: unknown } | undefined;
  const hasForm = declared?.form !== undefined;
  const hasUrl = declared?.url !== undefined;
  // Declaring neither mode means form mode (elicitation before modes existed).
  if (params.mode === "form" && declared !== undefined && !hasForm && hasUrl) {
    throw new MCPProtocolError(RpcCode.InvalidParams, "Client does not support form-mode elicitation requests");
  }
  if (params.mode === "url" && !hasUrl) {
    throw new MCPProtocolError(RpcCode.InvalidParams, "Client does not support URL-mode elicitation requests");
  }
}

/**
 * A handler's failure as the JSON-RPC error the server is told (its code when it has a numeric
 * one). Core's MCPProtocolError is worded as SDK 1.x's McpError would word it ("MCP error <code>: ...").
 */
export function errorReply(error: unknown): { code: number; message: string; data?: unknown } {
  if (MCPProtocolError.isInstance(error)) {
    const message = `MCP error ${error.rpcCode}: ${error.message}`;
    return { code: error.rpcCode, message, ...(error.data === undefined ? {} : { data: error.data }) };
  }
  const fields = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  return {
    code: Number.isSafeInteger(fields.code) ? (fields.code as number) : RpcCode.InternalError,
    message: typeof fields.message === "string" ? fields.message : "Internal error",
    ...(fields.data === undefined ? {} : { data: fields.data }),
  };
}
