import type { MCPIncomingMessageExtra } from "./engine.js";

/** A JSON-RPC message as it passes on a transport, read only by the fields that tell its kind. */
interface PassingMessage {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: unknown;
}

type RequestId = string | number;

/**
 * Follows the link a transport reports (MCPIncomingMessageExtra.relatedRequestId) from a server's
 * request to the host's tagged request (MCPEngineRequestOptions.tag), for an engine on an SDK
 * client that numbers its requests itself and hands a request handler only the server request's
 * own id (SDK 1.x's `Client`, SDK v2's). The engine reports every message its client sends and
 * receives at the transport; everything is read off those messages' ids, nothing is added to them.
 *
 * The one thing the wire cannot say is which JSON-RPC id the client gave a tagged request: the
 * engine calls `sending(tag, send)` around a client call that hands the request to the transport
 * before it returns (both SDKs' `request()` do), and the first request sent inside takes the tag.
 * A client call that sends later (after an await) tags nothing: its server requests stay unlinked,
 * never linked to another request.
 */
export class RelatedRequestTags {
  /** The tag of the request being sent right now, inside `sending`. */
  #sendingTag: unknown;
  /** Our requests in flight that carry a tag, by the id the client gave them. */
  readonly #inFlight = new Map<RequestId, unknown>();
  /** The server's requests linked to one of them, by the server's id, until we answer. */
  readonly #linked = new Map<RequestId, unknown>();

  /** Runs `send` (a client call that sends one request at once); that request carries `tag`. */
  sending<T>(tag: unknown, send: () => T): T {
    if (tag === undefined) return send();
    this.#sendingTag = tag;
    try {
      return send();
    } finally {
      this.#sendingTag = undefined;
    }
  }

  /** Every message the client sends, as it goes to the transport. */
  sent(message: PassingMessage): void {
    const { id, method } = message;
    if (method === undefined) {
      // Our answer to a server's request: nothing can ask about it any more.
      if (id !== undefined && this.#linked.size > 0) this.#linked.delete(id);
      return;
    }
    if (id !== undefined) {
      if (this.#sendingTag === undefined) return;
      this.#inFlight.set(id, this.#sendingTag);
      this.#sendingTag = undefined;
    } else if (method === "notifications/cancelled" && this.#inFlight.size > 0) {
      this.#inFlight.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? "");
    }
  }

  /** Every message the client receives, with what the transport said of it. */
  received(message: PassingMessage, extra: object | undefined): void {
    const { id } = message;
    if (id === undefined || this.#inFlight.size === 0) return;
    if (message.method === undefined) {
      this.#inFlight.delete(id);
      return;
    }
    const related = (extra as MCPIncomingMessageExtra | undefined)?.relatedRequestId;
    if (related === undefined) return;
    const tag = this.#inFlight.get(related);
    if (tag !== undefined) this.#linked.set(id, tag);
  }

  /** The tag of the request the server's request `id` belongs to; undefined when nothing links them. */
  tagOf(id: RequestId): unknown {
    return this.#linked.get(id);
  }

  /** The connection closed: no request is in flight any more. */
  clear(): void {
    this.#inFlight.clear();
    this.#linked.clear();
  }
}
