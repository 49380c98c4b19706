import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  type CallToolResult,
  type JSONRPCMessage,
  type ProgressNotification,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { ControllersAhead } from "./controllers-ahead.js";

/** A downstream `tools/call` the fast path answers, as the SDK Server's handler would see it. */
export interface FastToolCall {
  readonly method: "tools/call";
  readonly id: RequestId;
  readonly params: ToolCallParams;
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * Sends a progress notification tied to this request (on its HTTP response stream), unless it was
   * cancelled. A method: call it on the call (`call.sendProgress(...)`), do not take it off.
   */
  sendProgress(notification: Pick<ProgressNotification, "method" | "params">): Promise<void>;
}

export interface ToolCallParams {
  name: string;
  arguments?: Record<string, unknown> | undefined;
  _meta?: { progressToken?: string | number } & Record<string, unknown>;
}

/** Answers one tools/call; a thrown error becomes the JSON-RPC error response, as in the SDK. */
export type ToolCallHandler = (call: FastToolCall) => Promise<CallToolResult>;

/** The SDK's key for task-related requests: those stay on the SDK Server, which knows tasks. */
const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";

/**
 * Answers `tools/call` requests on `transport`'s message stream before the SDK `Server` connected
 * to it sees them; everything else (initialize, lists, notifications, responses to the gateway's own
 * requests, and tools/call shapes this path does not take) goes on to the SDK as before.
 *
 * Why: the SDK Server zod-parses every request and every result, and runs its request bookkeeping,
 * which was most of the gateway's own CPU per forwarded call. Here the request object the transport
 * parsed is checked by hand for the few fields the call needs, the upstream's result object goes out
 * as it is, and the transport serializes the response once. What the SDK's request handling gives a
 * call is kept: cancellation (`notifications/cancelled` aborts the call's signal, and no response is
 * sent after it), abort on close, progress tied to the request, and its error response shape.
 *
 * Call after `server.connect(transport)`: the SDK's handlers are wrapped, not replaced.
 */
export function answerToolCallsFirst(transport: Transport, handle: ToolCallHandler): void {
  const inFlight = new Map<RequestId, AbortController>();
  const controllers = new ControllersAhead();
  const sdkOnMessage = transport.onmessage;
  const sdkOnClose = transport.onclose;

  /** The response, unless the call was cancelled (the SDK's rule: the client has stopped waiting). */
  const respond = (id: RequestId, controller: AbortController, response: JSONRPCMessage): void => {
    if (inFlight.get(id) === controller) inFlight.delete(id);
    if (controller.signal.aborted) return;
    transport.send(response).catch((error: unknown) => {
      transport.onerror?.(new Error(`Failed to send the response to tools/call ${String(id)}`, { cause: error }));
    });
    controllers.refillAfterWrites();
  };

  // Not async: the handler's promise is answered by direct callbacks, without a wrapper promise and
  // its turns per call. The call goes to the handler (and upstream, in the same turn) first; the
  // bookkeeping for its cancellation after: a cancellation can only arrive in a later read.
  const answer = (id: RequestId, params: ToolCallParams): void => {
    const controller = controllers.take();
    let answered: Promise<CallToolResult>;
    try {
      answered = handle(new ForwardedToolCall(id, params, controller.signal, transport));
    } catch (error) {
      answered = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    inFlight.set(id, controller);
    answered.then(
      (result) => {
        respond(id, controller, { jsonrpc: "2.0", id, result });
      },
      (error: unknown) => {
        respond(id, controller, { jsonrpc: "2.0", id, error: errorBody(error) });
      },
    );
  };

  transport.onmessage = (message, extra) => {
    const call = fastToolCall(message);
    if (call !== undefined) {
      answer(call.id, call.params);
      return;
    }
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) inFlight.get(cancelled.id)?.abort(cancelled.reason);
    sdkOnMessage?.(message, extra);
  };
  transport.onclose = () => {
    for (const controller of inFlight.values()) controller.abort();
    inFlight.clear();
    sdkOnClose?.();
  };
}

/** One call on its way: a class, so a call costs one object and no closures of its own. */
class ForwardedToolCall implements FastToolCall {
  readonly id: RequestId;
  readonly params: ToolCallParams;
  readonly signal: AbortSignal;
  readonly #transport: Transport;

  constructor(id: RequestId, params: ToolCallParams, signal: AbortSignal, transport: Transport) {
    this.id = id;
    this.params = params;
    this.signal = signal;
    this.#transport = transport;
  }

  /** A getter on the prototype: the call is its own request for its span, at no cost per call. */
  get method(): "tools/call" {
    return "tools/call";
  }

  sendProgress(notification: Pick<ProgressNotification, "method" | "params">): Promise<void> {
    return this.signal.aborted
      ? Promise.resolve()
      : this.#transport.send({ jsonrpc: "2.0", ...notification }, { relatedRequestId: this.id });
  }
}

/** The request's id and params when it is a tools/call this path answers; else undefined. */
function fastToolCall(message: JSONRPCMessage): { id: RequestId; params: ToolCallParams } | undefined {
  if (!("method" in message) || message.method !== "tools/call" || !("id" in message)) return undefined;
  const id: unknown = message.id;
  const params: unknown = message.params;
  if ((typeof id !== "string" && typeof id !== "number") || !isRecord(params)) return undefined;
  if (typeof params.name !== "string" || params.task !== undefined) return undefined;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return undefined;
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isRecord(meta) || meta[RELATED_TASK_META_KEY] !== undefined) return undefined;
    const token = meta.progressToken;
    if (token !== undefined && typeof token !== "string" && typeof token !== "number") return undefined;
  }
  return { id, params: params as unknown as ToolCallParams };
}

function cancelledRequestId(message: JSONRPCMessage): { id: RequestId; reason: unknown } | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled" || "id" in message) return undefined;
  const params: unknown = message.params;
  if (!isRecord(params)) return undefined;
  const id = params.requestId;
  return typeof id === "string" || typeof id === "number" ? { id, reason: params.reason } : undefined;
}

/** The JSON-RPC error for a thrown error, shaped as the SDK's Protocol shapes it. */
function errorBody(error: unknown): { code: number; message: string; data?: unknown } {
  const record = isRecord(error) ? error : {};
  const code = Number.isSafeInteger(record.code) ? (record.code as number) : ErrorCode.InternalError;
  const message = typeof record.message === "string" ? record.message : "Internal error";
  return { code, message, ...(record.data === undefined ? {} : { data: record.data }) };
}
