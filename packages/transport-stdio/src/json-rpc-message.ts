import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type JsonRpcCheck = { success: true; data: JSONRPCMessage } | { success: false; error: unknown };

interface MessageSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

/** The SDK's schema once loaded, or the import's failure; undefined before. */
let schema: MessageSchema | Error | undefined;
let loading: Promise<void> | undefined;

/**
 * Checks a parsed stdout line against the SDK's JSON-RPC message schema. The shapes nearly every
 * message has (a result, a request or a notification without `_meta`) are recognised by a few
 * property reads and delivered as parsed; anything else (errors, `_meta`, unexpected keys) goes
 * through the SDK's Zod schema, so what is accepted, rejected or stripped stays exactly the SDK's.
 * The SDK's own stdio transport runs the Zod union on every message: most of a response's
 * parsing cost on the client, and what this skips.
 *
 * The schema lives in SDK 1.x's `types.js`, whose Zod schemas cost some 5 MB of live heap: it is
 * loaded with the first message that needs it, so until then the answer may be a promise (the
 * caller holds the messages after it until it settles, to keep their order).
 */
export function checkJsonRpcMessage(value: unknown): JsonRpcCheck | Promise<JsonRpcCheck> {
  if (isPlainResultOrCall(value)) return { success: true, data: value as JSONRPCMessage };
  if (schema === undefined) return loadSchema().then(() => checkWithSchema(value));
  return checkWithSchema(value);
}

function checkWithSchema(value: unknown): JsonRpcCheck {
  if (schema === undefined || schema instanceof Error) return { success: false, error: schema };
  const result = schema.safeParse(value);
  return result.success
    ? { success: true, data: result.data as JSONRPCMessage }
    : { success: false, error: result.error };
}

function loadSchema(): Promise<void> {
  loading ??= import("@modelcontextprotocol/sdk/types.js").then(
    (types) => {
      schema = types.JSONRPCMessageSchema;
    },
    (error: unknown) => {
      schema = error instanceof Error ? error : new Error(String(error));
    },
  );
  return loading;
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
