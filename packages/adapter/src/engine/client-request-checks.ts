import {
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  CreateTaskResultSchema,
  ElicitResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { MCPProtocolError } from "@mcp-tool-adapter/core";
import type { MCPAnsweredRequest } from "@mcp-tool-adapter/core/protocol";
import { RpcCode } from "../rpc-error.js";
import type { IncomingRequest } from "./json-rpc-shapes.js";
import { REQUEST_SCHEMAS } from "./sdk-schemas.js";

/**
 * The checks of a server-to-client request and of the host's answer, with SDK 1.x's own schemas,
 * in the order SDK 1.x's Client runs them. Loaded with the first such request
 * (client-requests.ts): they are rare, and the schemas are most of what SDK 1.x's `types.js` weighs.
 */

interface Schema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: Error };
}

/** The request's params as the SDK's schema passes them; throws the schema's error when they do not fit. */
export function checkedParams(method: MCPAnsweredRequest, request: IncomingRequest): Record<string, unknown> {
  const schema: Schema = REQUEST_SCHEMAS[method];
  const checked = schema.safeParse({ method: request.method, params: request.params });
  if (!checked.success) throw checked.error;
  return (checked.data as { params?: Record<string, unknown> }).params ?? {};
}

/** The host's answer as the SDK's schema passes it; an InvalidParams error when it does not fit. */
export function checkedAnswer(method: string, params: Record<string, unknown>, result: unknown): unknown {
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
  throw new MCPProtocolError(RpcCode.InvalidParams, `Invalid ${what} result: ${parsed.error.message}`);
}
