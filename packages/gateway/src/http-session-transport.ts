import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { GatewayError } from "./errors.js";
import { eventStreamHeaders, eventText, keepAlive, KEEP_ALIVE_MS } from "./event-stream.js";
import { checkGet, checkPost, checkProtocolVersion } from "./http-exchange-checks.js";
import { isRequest, isResponse } from "./json-rpc-envelope.js";
import { createPostAnswer, type PostAnswer } from "./post-answer.js";
import { noteWireEnd } from "./session-end.js";

/** One HTTP request to a session, and where its answer goes. */
export interface HttpExchange {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
}

export interface HttpSessionTransportOptions {
  readonly sessionId: string;
  /** Called once when the session ends (DELETE, close()). */
  readonly onClosed: () => void;
  /** Default KEEP_ALIVE_MS. */
  readonly keepAliveMs?: number | undefined;
}

/**
 * One 2025-era session's side of streamable HTTP, as the SDK `Transport` its `Server` connects to.
 * Each message is parsed once (the listener's JSON.parse of the body) and serialized once (in the
 * answer that carries it); between them the envelope is checked by hand.
 */
export interface HttpSessionTransport extends Transport {
  readonly sessionId: string;
  /** Serves one request of this session (POST, GET or DELETE); `body` is the POST's parsed JSON. A refusal is thrown as a GatewayError. */
  handle(exchange: HttpExchange, body: unknown): void;
}

export function createHttpSessionTransport(options: HttpSessionTransportOptions): HttpSessionTransport {
  return new NodeHttpSessionTransport(options);
}

/** Sent in place of the client when its POST's connection closes before the answer is complete. */
const CLIENT_GONE = "The client closed the HTTP connection before the answer was complete.";

/**
 * Where each outgoing message goes: a response, and a message related to a request whose POST is
 * still being answered (progress, elicitation, sampling, a log), go on that POST's answer; anything
 * else goes on the session's GET stream, and is dropped when the client has none open (as the
 * SDK's transport does). A client that goes away before its POST is answered is taken as having
 * cancelled those requests: nothing could deliver their answers (this endpoint keeps no event store
 * to resume from), so the upstream calls under them are cancelled rather than run to the end.
 */
class NodeHttpSessionTransport implements HttpSessionTransport {
  readonly sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #options: HttpSessionTransportOptions;
  readonly #keepAliveMs: number;
  /** The open answer for each request still being answered. */
  readonly #answers = new Map<RequestId, PostAnswer>();
  #standalone: ServerResponse | undefined;
  #stopStandaloneKeepAlive: (() => void) | undefined;
  #initialized = false;
  #closed = false;

  constructor(options: HttpSessionTransportOptions) {
    this.#options = options;
    this.sessionId = options.sessionId;
    this.#keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  handle(exchange: HttpExchange, body: unknown): void {
    if (this.#closed) {
      throw new GatewayError("SESSION_UNKNOWN", `Session "${this.sessionId}" has ended: initialize again.`);
    }
    switch (exchange.request.method) {
      case "POST":
        this.#post(exchange, body);
        return;
      case "GET":
        this.#openStandalone(exchange);
        return;
      case "DELETE":
        checkProtocolVersion(exchange.request);
        noteWireEnd(this, "deleted");
        exchange.response.writeHead(200).end();
        void this.close();
        return;
      default:
        throw new GatewayError(
          "METHOD_NOT_ALLOWED",
          `${exchange.request.method ?? "This method"} is not part of streamable HTTP: use POST, GET or DELETE.`,
        );
    }
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const related = isResponse(message) ? message.id : options?.relatedRequestId;
    const answer = related === undefined ? undefined : this.#answers.get(related);
    if (answer?.open === true) answer.write(message);
    // A response whose POST is gone (abandoned, or its session closing) has no one to reach.
    else if (!isResponse(message) && this.#standalone?.writableEnded === false)
      this.#standalone.write(eventText(message));
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const answer of new Set(this.#answers.values())) answer.end();
    this.#answers.clear();
    this.#stopStandaloneKeepAlive?.();
    this.#standalone?.end();
    this.#standalone = undefined;
    this.#options.onClosed();
    this.onclose?.();
    return Promise.resolve();
  }

  #post(exchange: HttpExchange, body: unknown): void {
    const { request, response } = exchange;
    const { messages, batch } = checkPost(request, body);
    const initializes = messages.some((message) => "method" in message && message.method === "initialize");
    if (initializes && (this.#initialized || messages.length > 1)) {
      throw new GatewayError(
        "BAD_REQUEST",
        this.#initialized
          ? `Session "${this.sessionId}" is already initialized: a new session starts with an initialize POST without Mcp-Session-Id.`
          : "An initialize request must be sent alone, not in a batch.",
      );
    }
    if (initializes) this.#initialized = true;
    const extra: MessageExtraInfo = { requestInfo: { headers: request.headers } };
    const requestIds = messages.filter(isRequest).map((message) => message.id);
    if (requestIds.length === 0) {
      response.writeHead(202).end();
    } else {
      const answer = createPostAnswer({
        response,
        sessionId: this.sessionId,
        requestIds,
        batch,
        keepAliveMs: this.#keepAliveMs,
        onAbandoned: (ids) => this.#cancel(ids, extra),
        onDone: () => {
          for (const id of requestIds) if (this.#answers.get(id) === answer) this.#answers.delete(id);
        },
      });
      for (const id of requestIds) this.#answers.set(id, answer);
    }
    for (const message of messages) this.onmessage?.(message, extra);
  }

  /** The client's requests whose answers can no longer reach it, cancelled as if it had sent `notifications/cancelled`. */
  #cancel(requestIds: readonly RequestId[], extra: MessageExtraInfo): void {
    if (this.#closed) return;
    for (const requestId of requestIds) {
      this.onmessage?.(
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: CLIENT_GONE } },
        extra,
      );
    }
  }

  /** The GET stream: where messages related to no open request go (list changes, unrelated logs, requests of the gateway's own). */
  #openStandalone({ request, response }: HttpExchange): void {
    checkGet(request);
    if (this.#standalone !== undefined) {
      throw new GatewayError(
        "STREAM_CONFLICT",
        `Conflict: session "${this.sessionId}" already has its GET event stream open; only one is allowed.`,
      );
    }
    response.writeHead(200, eventStreamHeaders(this.sessionId));
    response.flushHeaders();
    this.#standalone = response;
    this.#stopStandaloneKeepAlive = keepAlive(response, this.#keepAliveMs);
    response.once("close", () => {
      if (this.#standalone !== response) return;
      this.#stopStandaloneKeepAlive?.();
      this.#standalone = undefined;
    });
  }
}
