import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

// Loaded by the transport as the server starts (with the SDK's types, and zod): the framing of a
// message on the wire, and the check of a message read from it.
export { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";

export type JsonRpcCheck = { success: true; data: JSONRPCMessage } | { success: false; error: unknown };

/**
 * Checks a parsed stdout line against the SDK's JSON-RPC message schema. The shapes nearly every
 * message has (a result, a request or a notification without `_meta`) are recognised by a few
 * property reads and delivered as parsed; anything else (errors, `_meta`, unexpected keys) goes
 * through the SDK's Zod schema, so what is accepted, rejected or stripped stays exactly the SDK's.
 * The SDK's own stdio transport runs the Zod union on every message: most of a response's
 * parsing cost on the client, and what this skips.
 */
export function checkJsonRpcMessage(value: unknown): JsonRpcCheck {
  if (isPlainResultOrCall(value)) return { success: true, data: value as JSONRPCMessage };
  const result = JSONRPCMessageSchema.safeParse(value);
  return result.success ? { success: true, data: result.data } : { success: false, error: result.error };
}

/**
 * True only for `{jsonrpc: "2.0", id, result: {...}}` without `_meta`, and for requests or
 * notifications `{jsonrpc: "2.0", id?, method, params?: {...}}` without `_meta`, with no other keys:
 * exactly the messages the SDK's schema passes through unchanged.
 */
function isPlainResultOrCall(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return false;
  let keys = 1;
  const id = message.id;
  if (id !== undefined) {
    if (typeof id !== "string" && !Number.isSafeInteger(id)) return false;
    keys += 1;
  }
  if (Object.hasOwn(message, "result")) {
    if (id === undefined || !isObjectWithoutMeta(message.result)) return false;
    keys += 1;
  } else {
    if (typeof message.method !== "string") return false;
    keys += 1;
    if (Object.hasOwn(message, "params")) {
      if (!isObjectWithoutMeta(message.params)) return false;
      keys += 1;
    }
  }
  // Own keys only: JSON.parse makes every key own, "__proto__" included.
  return Object.keys(message).length === keys;
}

function isObjectWithoutMeta(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !Object.hasOwn(value, "_meta");
}
