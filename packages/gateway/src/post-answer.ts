import type { ServerResponse } from "node:http";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { eventStreamHeaders, eventText, keepAlive } from "./event-stream.js";
import { isResponse } from "./json-rpc-envelope.js";

export interface PostAnswerOptions {
  readonly response: ServerResponse;
  readonly sessionId: string;
  /** The requests of the POST: the answer is complete when each has its response. */
  readonly requestIds: readonly RequestId[];
  /** The POST was a JSON-RPC batch: a JSON answer is an array. */
  readonly batch: boolean;
  /** How long an answer may stay silent before it becomes an event stream (and how often a stream gets a keep-alive). */
  readonly keepAliveMs: number;
  /** The client went away before every response was written: these requests' answers can no longer reach it. */
  readonly onAbandoned: (requestIds: readonly RequestId[]) => void;
  /** The answer is over (complete, abandoned or ended by the session): its request ids can be forgotten. */
  readonly onDone: () => void;
}

/** The HTTP response to one POST carrying requests. */
export interface PostAnswer {
  /** True until the answer is complete, abandoned or ended. */
  readonly open: boolean;
  /** A response to one of its requests, or a message related to one (progress, elicitation, sampling, a log). */
  write(message: JSONRPCMessage): void;
  /** Ends the answer now (the session is closing). */
  end(): void;
}

export function createPostAnswer(options: PostAnswerOptions): PostAnswer {
  return new JsonOrEventStreamAnswer(options);
}

/**
 * Streamable HTTP lets the server answer a POST with one JSON body or with an event stream, and
 * every client must take both. A JSON body is one write of headers and body together, which is
 * what most answers need: the response alone. So the answer waits for its responses and sends them
 * as JSON, and becomes an event stream only when something else must reach the client first (a
 * progress notification, an elicitation or sampling request, a log) or when it has been silent for
 * the keep-alive interval (a long call behind a proxy that closes quiet connections). The stream
 * then carries the buffered responses, each later message, and keep-alive comments.
 */
class JsonOrEventStreamAnswer implements PostAnswer {
  readonly #options: PostAnswerOptions;
  readonly #response: ServerResponse;
  readonly #pending: Set<RequestId>;
  /** Responses waiting for the last one (JSON mode, batches only). */
  readonly #ready: JSONRPCMessage[] = [];
  #streaming = false;
  #done = false;
  #silence: NodeJS.Timeout | undefined;
  #stopKeepAlive: (() => void) | undefined;

  constructor(options: PostAnswerOptions) {
    this.#options = options;
    this.#response = options.response;
    this.#pending = new Set(options.requestIds);
    // Not unref'd: the answer's open request holds the process anyway, and a timer left behind shows.
    this.#silence = setTimeout(() => this.#startStream(), options.keepAliveMs);
    this.#response.once("close", () => {
      if (!this.#done) this.#abandon();
    });
  }

  get open(): boolean {
    return !this.#done;
  }

  write(message: JSONRPCMessage): void {
    if (this.#done) return;
    const answers = isResponse(message);
    if (answers && message.id !== undefined) this.#pending.delete(message.id);
    if (!this.#streaming && answers) {
      this.#ready.push(message);
      if (this.#pending.size === 0) this.#sendJson();
      return;
    }
    if (!this.#streaming) this.#startStream();
    this.#response.write(eventText(message));
    if (this.#pending.size === 0) this.#finish();
  }

  end(): void {
    if (this.#done) return;
    if (!this.#streaming && !this.#response.headersSent) this.#startStream();
    this.#finish();
  }

  #sendJson(): void {
    const body = JSON.stringify(this.#options.batch ? this.#ready : this.#ready[0]);
    this.#ready.length = 0;
    this.#settle();
    // Content-Length, not chunked: headers and body leave in one write.
    this.#response.writeHead(200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "mcp-session-id": this.#options.sessionId,
    });
    this.#response.end(body);
  }

  #startStream(): void {
    if (this.#streaming || this.#done) return;
    this.#streaming = true;
    this.#clearSilence();
    this.#response.writeHead(200, eventStreamHeaders(this.#options.sessionId));
    let text = "";
    for (const message of this.#ready) text += eventText(message);
    this.#ready.length = 0;
    if (text.length > 0) this.#response.write(text);
    else this.#response.flushHeaders();
    this.#stopKeepAlive = keepAlive(this.#response, this.#options.keepAliveMs);
  }

  #finish(): void {
    this.#settle();
    this.#response.end();
  }

  #abandon(): void {
    const unanswered = [...this.#pending];
    this.#settle();
    if (unanswered.length > 0) this.#options.onAbandoned(unanswered);
  }

  /** The answer is over: timers stop and the session forgets its request ids. */
  #settle(): void {
    this.#done = true;
    this.#pending.clear();
    this.#clearSilence();
    this.#stopKeepAlive?.();
    this.#options.onDone();
  }

  #clearSilence(): void {
    if (this.#silence === undefined) return;
    clearTimeout(this.#silence);
    this.#silence = undefined;
  }
}
