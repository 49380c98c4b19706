/** A checked JSON-RPC message: the message as it is to be delivered, or why it was refused. */
export type JsonRpcCheck<M> = { success: true; data: M } | { success: false; error: unknown };

/** A Zod-like schema: what SDK 1.x's `JSONRPCMessageSchema` offers. */
export interface JsonRpcMessageSchema {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

/** Checks one parsed message; a promise only while the full schema is still loading. */
export type JsonRpcMessageCheck<M> = (value: unknown) => JsonRpcCheck<M> | Promise<JsonRpcCheck<M>>;

/**
 * A check of parsed JSON-RPC messages against a full schema (SDK 1.x's `JSONRPCMessageSchema`,
 * which a transport loads itself: this package depends on no SDK). The shapes nearly every message
 * has (a result, a request or a notification without `_meta`) are recognised by a few property
 * reads and delivered as parsed; anything else (errors, `_meta`, unexpected keys) goes through the
 * schema, so what is accepted, rejected or stripped stays exactly the schema's. The SDK's own
 * transports run the Zod union on every message: most of a response's parsing cost on the client,
 * and what this skips.
 *
 * SDK 1.x's `types.js` costs some 5 MB of live heap: `loadSchema` runs with the first message
 * that needs the schema, so until it settles the answer is a promise (the caller holds the
 * messages after it until then, to keep their order).
 */
export function createJsonRpcMessageCheck<M>(loadSchema: () => Promise<JsonRpcMessageSchema>): JsonRpcMessageCheck<M> {
  /** The schema once loaded, or the load's failure; undefined before. */
  let schema: JsonRpcMessageSchema | Error | undefined;
  let loading: Promise<void> | undefined;

  function checkWithSchema(value: unknown): JsonRpcCheck<M> {
    if (schema === undefined || schema instanceof Error) return { success: false, error: schema };
    const result = schema.safeParse(value);
    return result.success ? { success: true, data: result.data as M } : { success: false, error: result.error };
  }

  function load(): Promise<void> {
    loading ??= loadSchema().then(
      (loaded) => {
        schema = loaded;
      },
      (error: unknown) => {
        schema = error instanceof Error ? error : new Error(String(error));
      },
    );
    return loading;
  }

  return (value) => {
    if (isPlainJsonRpcResultOrCall(value)) return { success: true, data: value as M };
    if (schema === undefined) return load().then(() => checkWithSchema(value));
    return checkWithSchema(value);
  };
}

/**
 * True only for `{jsonrpc: "2.0", id, result: {...}}` without `_meta`, and for requests or
 * notifications `{jsonrpc: "2.0", id?, method, params?: {...}}` without `_meta`, with no other keys:
 * exactly the messages SDK 1.x's schema passes through unchanged.
 */
export function isPlainJsonRpcResultOrCall(value: unknown): boolean {
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
