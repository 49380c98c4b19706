import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
  ErrorCode,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { MCPProtocolError, type MCPEngineRequestHandler } from "@mcp-tool-adapter/core";
import { isAnsweredRequest, MCP_ANSWERED_REQUESTS } from "@mcp-tool-adapter/core/protocol";
import type { IncomingRequest } from "./json-rpc-shapes.js";
import { REQUEST_SCHEMAS } from "./sdk-schemas.js";

/**
 * Server-to-client requests: rare, so their params and answers are checked with SDK 1.x's own
 * schemas, in the order SDK 1.x's Client checks them, and fail with the same JSON-RPC codes.
 */

interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: Error };
}

type Answer = (request: IncomingRequest, signal: AbortSignal) => Promise<unknown>;

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
    const schema: Schema = REQUEST_SCHEMAS[method];
    const capability = MCP_ANSWERED_REQUESTS[method];
    if (capabilities[capability] === undefined) {
      throw new Error(`Client does not support ${capability} capability (required for ${method})`);
    }
    answers.set(method, async (request, signal) => {
      const checked = schema.safeParse({ method: request.method, params: request.params });
      if (!checked.success) throw checked.error;
      const params = (checked.data as { params?: Record<string, unknown> }).params ?? {};
      if (method === "elicitation/create") params.mode ??= "form";
      checkBeforeHandling(method, params, capabilities);
      const result: unknown = await handler(params, { signal });
      return checkAnswer(method, params, result);
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
    throw new McpError(ErrorCode.InvalidParams, "Client does not support form-mode elicitation requests");
  }
  if (params.mode === "url" && !hasUrl) {
    throw new McpError(ErrorCode.InvalidParams, "Client does not support URL-mode elicitation requests");
  }
}

function checkAnswer(method: string, params: Record<string, unknown>, result: unknown): unknown {
  if (method === "roots/list" || method.startsWith("tasks/")) return result;
  const what = method === "elicitation/create" ? "elicitation" : "sampling";
  if (params.task !== undefined) return parsedOrInvalid(CreateTaskResultSchema, result, "task creation");
  if (method === "elicitation/create") return parsedOrInvalid(ElicitResultSchema, result, what);
  const withTools = params.tools !== undefined || params.toolChoice !== undefined;
  return parsedOrInvalid(withTools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema, result, what);
}

function parsedOrInvalid(schema: Schema, value: unknown, what: string): unknown {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new McpError(ErrorCode.InvalidParams, `Invalid ${what} result: ${parsed.error.message}`);
}

/** A handler's failure as the JSON-RPC error the server is told (its code when it has a numeric one). */
export function errorReply(error: unknown): { code: number; message: string; data?: unknown } {
  const sdkError = MCPProtocolError.isInstance(error) ? new McpError(error.rpcCode, error.message, error.data) : error;
  const fields = (typeof sdkError === "object" && sdkError !== null ? sdkError : {}) as {
    code?: unknown;
    message?: unknown;
    data?: unknown;
  };
  return {
    code: Number.isSafeInteger(fields.code) ? (fields.code as number) : ErrorCode.InternalError,
    message: typeof fields.message === "string" ? fields.message : "Internal error",
    ...(fields.data === undefined ? {} : { data: fields.data }),
  };
}
