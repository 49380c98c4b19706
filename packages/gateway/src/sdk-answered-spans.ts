import { context, type Context } from "@opentelemetry/api";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { Deferred } from "./deferred.js";
import { inRequestSpan, requestsObserved, type SpanConnection } from "./request-span.js";
import { watchEventStreamResponses } from "./event-stream-responses.js";

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
    if ("method" in message && "id" in message && methods.has(message.method) && requestsObserved(connection)) {
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

/**
 * Starts the request's span, ended when its entry in `waiting` is answered or failed. `inSpan`
 * runs at once inside the span's context (the context it passes on names the span).
 */
function spanUntilAnswered(
  request: { method: string; id: RequestId; params?: unknown; protocolVersion: string | undefined },
  connection: SpanConnection,
  waiting: Map<RequestId, Waiting>,
  inSpan?: (active: Context) => void,
): void {
  const answer = new Deferred<unknown>();
  waiting.set(request.id, {
    answered: (result) => {
      // The revision the session's initialize agreed on: on every later span of the session.
      if (request.method === "initialize" && isRecord(result) && typeof result["protocolVersion"] === "string")
        connection.protocolVersion = result["protocolVersion"];
      answer.resolve(result);
    },
    // The JSON-RPC error object as it went out: its code is what the span records.
    failed: (error) => {
      answer.reject(error instanceof Error ? error : Object.assign(new Error(errorMessage(error)), error));
    },
  });
  const params = isRecord(request.params) ? request.params : undefined;
  // The span records the failure; the response itself already went to the client.
  inRequestSpan({ ...request, params }, connection, () => {
    inSpan?.(context.active());
    return answer.promise;
  }).catch(() => undefined);
}

function errorMessage(error: unknown): string {
  return isRecord(error) && typeof error["message"] === "string" ? error["message"] : String(error);
}

/**
 * A 2026-07-28 HTTP exchange (`body`, answered by `answer`, the v2 SDK's `createMcpHandler`) with
 * a SERVER span for each request no handler of the gateway's sees: a request the SDK answers
 * itself (`sdkAnswered`, default MODERN_SDK_ANSWERED), and every request of a batch (an array body, which the SDK
 * answers whole: the revision has no batches). Each span ends with its response: a JSON answer
 * when it is made, an event stream's message answering it as that message passes, or the end of
 * the stream (a `subscriptions/listen` that the client dropped). The client's bytes pass as they come.
 */
export function spanSdkAnsweredExchange(
  body: unknown,
  connection: SpanConnection,
  answer: () => Promise<Response>,
  sdkAnswered: ReadonlySet<string> = MODERN_SDK_ANSWERED,
): Promise<Response> {
  const requests = unhandledRequests(body, sdkAnswered);
  if (requests.length === 0 || !requestsObserved(connection)) return answer();
  const waiting = new Map<RequestId, Waiting>();
  for (const request of requests)
    spanUntilAnswered(
      {
        method: request.method,
        id: request.id,
        params: request.params,
        protocolVersion: namedRevision(request.params),
      },
      connection,
      waiting,
    );
  return answer().then(
    (response) => endWithResponse(response, waiting),
    (error: unknown) => {
      settleRest(waiting, (span) => {
        span.failed(error);
      });
      throw error;
    },
  );
}

/**
 * A request this copy passes on whole to another gateway copy, whose answer it relays (a retry of a
 * call waiting in that copy, held-call-retries.ts): its SERVER span here ends with the relayed
 * answer, as a request the SDK answers does. `relay` runs inside the span, given its context to pass
 * on (undefined when nothing observes: no span), so the other copy's span is its child.
 */
export function spanRelayedExchange(
  request: WireRequest,
  connection: SpanConnection,
  relay: (active: Context | undefined) => Promise<Response>,
): Promise<Response> {
  if (!requestsObserved(connection)) return relay(undefined);
  const waiting = new Map<RequestId, Waiting>();
  let relayed: Promise<Response> | undefined;
  const wire = { method: request.method, id: request.id, params: request.params };
  spanUntilAnswered({ ...wire, protocolVersion: namedRevision(request.params) }, connection, waiting, (active) => {
    relayed = relay(active);
  });
  // inRequestSpan runs its work before it returns: the relay has started.
  return (relayed ?? relay(undefined)).then(
    (response) => endWithResponse(response, waiting),
    (error: unknown) => {
      settleRest(waiting, (span) => {
        span.failed(error);
      });
      throw error;
    },
  );
}

export interface WireRequest {
  readonly method: string;
  readonly id: RequestId;
  readonly params?: unknown;
}

/** The requests of a body that get their span from the exchange (see spanSdkAnsweredExchange). */
function unhandledRequests(body: unknown, sdkAnswered: ReadonlySet<string>): readonly WireRequest[] {
  if (Array.isArray(body)) return body.filter(isWireRequest);
  return isWireRequest(body) && sdkAnswered.has(body.method) ? [body] : [];
}

function isWireRequest(message: unknown): message is WireRequest {
  if (!isRecord(message) || typeof message["method"] !== "string") return false;
  const id = message["id"];
  return typeof id === "string" || typeof id === "number";
}

/** Ends every span still waiting as `settle` says. */
function settleRest(waiting: Map<RequestId, Waiting>, settle: (span: Waiting) => void): void {
  for (const span of waiting.values()) settle(span);
  waiting.clear();
}

/**
 * Ends a waiting span with `message` when it is the response to it. An error answering no
 * request (id null: the SDK refused the whole body, a batch) ends every span still waiting.
 */
function settleWith(message: unknown, waiting: Map<RequestId, Waiting>): void {
  if (!isRecord(message) || !("result" in message || "error" in message)) return;
  const id = message["id"];
  if (typeof id === "string" || typeof id === "number") {
    const span = waiting.get(id);
    waiting.delete(id);
    if (span === undefined) return;
    if (message["error"] !== undefined) span.failed(message["error"]);
    else span.answered(message["result"]);
  } else if (message["error"] !== undefined) {
    settleRest(waiting, (span) => {
      span.failed(message["error"]);
    });
  }
}

/** Ends the spans when `response` is over: a JSON answer now, a stream's as its messages pass. */
async function endWithResponse(response: Response, waiting: Map<RequestId, Waiting>): Promise<Response> {
  const source = response.body;
  const answeredSilently = (span: Waiting): void => {
    span.answered(undefined);
  };
  if (source === null) {
    settleRest(waiting, answeredSilently);
    return response;
  }
  if (response.headers.get("content-type")?.includes("application/json") === true) {
    const answerBody: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    for (const message of Array.isArray(answerBody) ? answerBody : [answerBody]) settleWith(message, waiting);
    settleRest(waiting, answeredSilently);
    return response;
  }
  const stream = watchEventStreamResponses(source, {
    onMessage: (message) => {
      settleWith(message, waiting);
    },
    onEnd: () => {
      settleRest(waiting, answeredSilently);
    },
    onError: (error) => {
      settleRest(waiting, (span) => {
        span.failed(error);
      });
    },
  });
  return new Response(stream, { status: response.status, statusText: response.statusText, headers: response.headers });
}
