import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { inRequestSpan, tracingOn, type SpanConnection } from "./request-span.js";

/**
 * The requests a 2025-era session's SDK `Server` answers on its own, without a handler of the
 * gateway's: replacing them would mean copying what the SDK does (initialize's negotiation, the
 * log level it keeps per session), so their spans come from the message stream instead.
 */
export const LEGACY_SDK_ANSWERED: ReadonlySet<string> = new Set(["initialize", "ping", "logging/setLevel"]);

/**
 * What the v2 SDK answers on a 2026-07-28 stream connection without the gateway's handlers:
 * `server/discover` on its `Server`, `subscriptions/listen` in its `serveStdio` (the revision has
 * no `ping`). A listen's span lasts as long as its stream of notifications: until its answer, the
 * client's cancel, or the connection's end.
 */
export const MODERN_SDK_ANSWERED: ReadonlySet<string> = new Set(["server/discover", "subscriptions/listen"]);

/** A request's span waiting for its response to go out. */
interface Waiting {
  answered(result: unknown): void;
  failed(error: unknown): void;
}

/**
 * Gives the requests of `methods` the SDK answers on `transport` a SERVER span each, the same as
 * the gateway's own handlers' (inRequestSpan): it starts when the request comes in and ends when
 * its response is sent, or when the connection closes first. With `modernOnly`, only requests
 * that name the 2026-07-28 revision (the other era's are its session's). Call after the SDK took
 * the transport: its callbacks are wrapped, not replaced. With nothing traced, a request costs a lookup.
 */
export function spanSdkAnsweredRequests(
  transport: Transport,
  connection: SpanConnection,
  methods: ReadonlySet<string>,
  modernOnly = false,
): void {
  const waiting = new Map<RequestId, Waiting>();
  const sdkOnMessage = transport.onmessage;
  const sdkOnClose = transport.onclose;
  const send = transport.send.bind(transport);

  transport.onmessage = (message, extra) => {
    if ("method" in message && "id" in message && methods.has(message.method) && tracingOn(connection)) {
      const version = namedRevision(message.params);
      if (!modernOnly || version !== undefined)
        spanUntilAnswered({ ...message, protocolVersion: version }, connection, waiting);
    } else if (waiting.size > 0 && "method" in message && message.method === "notifications/cancelled") {
      // The client stopped waiting (how a listen ends): the span ends here, with no answer to wait for.
      const id = isRecord(message.params) ? message.params["requestId"] : undefined;
      if (typeof id === "string" || typeof id === "number") {
        waiting.get(id)?.answered(undefined);
        waiting.delete(id);
      }
    }
    sdkOnMessage?.(message, extra);
  };
  transport.send = (message, options) => {
    if (waiting.size > 0 && "id" in message && message.id !== undefined && !("method" in message)) {
      const span = waiting.get(message.id);
      waiting.delete(message.id);
      if (span !== undefined) {
        if ("error" in message) span.failed(message.error);
        else span.answered(message.result);
      }
    }
    return send(message, options);
  };
  transport.onclose = () => {
    for (const span of waiting.values()) span.failed(new Error("The connection closed before the answer."));
    waiting.clear();
    sdkOnClose?.();
  };
}

function namedRevision(params: unknown): string | undefined {
  const meta = isRecord(params) ? params["_meta"] : undefined;
  const version = isRecord(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === "string" ? version : undefined;
}

function spanUntilAnswered(
  request: { method: string; id: RequestId; params?: unknown; protocolVersion: string | undefined },
  connection: SpanConnection,
  waiting: Map<RequestId, Waiting>,
): Waiting {
  let span: Waiting | undefined;
  const params = isRecord(request.params) ? request.params : undefined;
  const answer = new Promise<unknown>((resolve, reject) => {
    span = {
      answered: (result) => {
        // The revision the session's initialize agreed on: on every later span of the session.
        if (request.method === "initialize" && isRecord(result) && typeof result["protocolVersion"] === "string")
          connection.protocolVersion = result["protocolVersion"];
        resolve(result);
      },
      // The JSON-RPC error object as it went out: its code is what the span records.
      failed: (error) => {
        reject(error instanceof Error ? error : Object.assign(new Error(errorMessage(error)), error));
      },
    };
    waiting.set(request.id, span);
  });
  // The span records the failure; the response itself already went to the client.
  inRequestSpan({ ...request, params }, connection, () => answer).catch(() => undefined);
  // Set in the promise's executor, which runs at once.
  return span as unknown as Waiting;
}

function errorMessage(error: unknown): string {
  return isRecord(error) && typeof error["message"] === "string" ? error["message"] : String(error);
}

/**
 * A 2026-07-28 HTTP exchange (`body`, answered by `answer`, the v2 SDK's `createMcpHandler`) in a
 * SERVER span when its request is one the SDK answers itself (MODERN_SDK_ANSWERED). The span ends
 * with the response: a JSON answer when it is made (its JSON-RPC error recorded), a
 * `subscriptions/listen` event stream when the stream ends or the client drops it.
 */
export function spanSdkAnsweredExchange(
  body: unknown,
  connection: SpanConnection,
  answer: () => Promise<Response>,
): Promise<Response> {
  if (!isRecord(body) || typeof body["method"] !== "string" || !MODERN_SDK_ANSWERED.has(body["method"]))
    return answer();
  const id = body["id"];
  if ((typeof id !== "string" && typeof id !== "number") || !tracingOn(connection)) return answer();
  const waiting = new Map<RequestId, Waiting>();
  const request = {
    method: body["method"],
    id,
    params: body["params"],
    protocolVersion: namedRevision(body["params"]),
  };
  const ended = spanUntilAnswered(request, connection, waiting);
  return answer().then(
    (response) => endWithResponse(response, ended),
    (error: unknown) => {
      ended.failed(error);
      throw error;
    },
  );
}

/** Ends the span when `response` is over: a JSON answer now, a stream when it ends or is dropped. */
async function endWithResponse(response: Response, ended: Waiting): Promise<Response> {
  const source = response.body;
  if (source === null) {
    ended.answered(undefined);
    return response;
  }
  if (response.headers.get("content-type")?.includes("application/json") === true) {
    const message: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    if (isRecord(message) && message["error"] !== undefined) ended.failed(message["error"]);
    else ended.answered(isRecord(message) ? message["result"] : undefined);
    return response;
  }
  const reader = (source as ReadableStream<Uint8Array>).getReader();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended.answered(undefined);
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        ended.failed(error);
        controller.error(error);
      }
    },
    cancel(reason) {
      ended.answered(undefined);
      return reader.cancel(reason);
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
