/**
 * What an incoming JSON-RPC 2.0 message is, decided by plain property checks instead of the SDK's
 * Zod schemas (which run on every response). The rules are those schemas': `jsonrpc` is "2.0",
 * an id is a string or an integer, params and results are objects, and no other keys appear.
 */
import { isRecord } from "@mcp-tool-adapter/core/value-rules";

export type RequestId = string | number;

export interface IncomingResult {
  readonly kind: "result";
  readonly id: RequestId;
  readonly result: Record<string, unknown>;
}

export interface IncomingError {
  readonly kind: "error";
  readonly id: RequestId | undefined;
  readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
}

export interface IncomingRequest {
  readonly kind: "request";
  readonly id: RequestId;
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

export interface IncomingNotification {
  readonly kind: "notification";
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

export type IncomingMessage = IncomingResult | IncomingError | IncomingRequest | IncomingNotification;

type Fields = Record<string, unknown>;

function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || Number.isInteger(value);
}

/** True when `message` has no key outside `allowed` (the SDK's schemas are strict). */
function onlyKeys(message: Fields, allowed: readonly string[]): boolean {
  for (const key in message) {
    if (!allowed.includes(key)) return false;
  }
  return true;
}

const ERROR_KEYS = ["jsonrpc", "id", "error"] as const;
const REQUEST_KEYS = ["jsonrpc", "id", "method", "params"] as const;
const NOTIFICATION_KEYS = ["jsonrpc", "method", "params"] as const;

/**
 * True when a result message (not an array) has no key besides `jsonrpc`, `id` and `result`; the
 * keys are compared in place, since this runs on every response.
 */
export function onlyResultKeys(message: object): boolean {
  if (Array.isArray(message)) return false;
  for (const key in message) {
    if (key !== "jsonrpc" && key !== "id" && key !== "result") return false;
  }
  return true;
}

function isErrorObject(value: unknown): value is IncomingError["error"] {
  return isRecord(value) && Number.isInteger(value.code) && typeof value.message === "string";
}

/** The message's kind and parts, or undefined when it is not a well-formed JSON-RPC 2.0 message. */
export function classifyMessage(message: unknown): IncomingMessage | undefined {
  if (!isRecord(message) || message.jsonrpc !== "2.0") return undefined;
  const { id, method, params } = message;
  if ("result" in message) {
    const { result } = message;
    if (!isRequestId(id) || !isRecord(result) || !onlyResultKeys(message)) return undefined;
    return { kind: "result", id, result };
  }
  if ("error" in message) {
    const { error } = message;
    if ((id !== undefined && !isRequestId(id)) || !isErrorObject(error) || !onlyKeys(message, ERROR_KEYS)) {
      return undefined;
    }
    return { kind: "error", id, error };
  }
  if (typeof method !== "string" || (params !== undefined && !isRecord(params))) return undefined;
  if (id !== undefined) {
    if (!isRequestId(id) || !onlyKeys(message, REQUEST_KEYS)) return undefined;
    return { kind: "request", id, method, params };
  }
  if (!onlyKeys(message, NOTIFICATION_KEYS)) return undefined;
  return { kind: "notification", method, params };
}
