import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCRequest,
  JSONRPCResultResponse,
} from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

/**
 * The JSON-RPC 2.0 envelope (request, notification, result or error response), checked by hand.
 * The SDK Server's handlers check each method's params with their own schemas, and the tools/call
 * fast path checks the fields it reads, so the envelope is all a transport vouches for.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (!isRecord(value)) return false;
  if (value.jsonrpc !== "2.0") return false;
  const { id } = value;
  const hasId = typeof id === "string" || typeof id === "number";
  if (id !== undefined && !hasId) return false;
  if (typeof value.method === "string") return value.params === undefined || isRecord(value.params);
  if (!hasId) return false;
  if ("result" in value) return isRecord(value.result);
  const { error } = value;
  return isRecord(error) && typeof error.code === "number" && typeof error.message === "string";
}

/** A checked message that expects an answer. */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}

/** A checked message that answers a request (a result or an error). */
export function isResponse(message: JSONRPCMessage): message is JSONRPCResultResponse | JSONRPCErrorResponse {
  return !("method" in message);
}
