import { SESSION_ERROR_CONNECTION_LOST, SESSION_ERROR_SERVER_CLOSED } from "@mcp-tool-adapter/core";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";

/**
 * What the wire of a downstream session saw of its end: the client ended it (`deleted`: an HTTP
 * session's DELETE; `stream-ended`: stdin's end), or the connection dropped (`lost`: stdin failed).
 */
export type WireEnd = "deleted" | "stream-ended" | "lost";

const wireEnds = new WeakMap<object, WireEnd>();

/** Notes how the client's side of `wire` ended; the first note stands. */
export function noteWireEnd(wire: object, end: WireEnd): void {
  if (!wireEnds.has(wire)) wireEnds.set(wire, end);
}

/**
 * How one 2025-era session ended, as `mcp.server.session.duration` records it: `error.type` if and
 * only if the session ended with an error (the OTel MCP conventions). Ended by the client, no
 * `error.type`: an HTTP session's DELETE; stdin's end once every request of the client was answered;
 * a transport a program gave the gateway closing by itself with every request answered (its peer
 * closed it). `connection_lost`: stdin's end or close with requests still unanswered, or stdin
 * failing. `server_closed`: the gateway closed the session itself (it shut down, or a program
 * closed the connection) before the client ended it. The gateway has no idle expiry: an HTTP
 * session a client abandons without DELETE lasts until the gateway closes it (`server_closed`).
 */
export class SessionEnding {
  readonly #wire: object;
  /** The client's requests not answered yet (cancelled ones get no answer: the cancel settles them). */
  readonly #unanswered = new Set<RequestId>();
  #closedByServer = false;

  /** `wire`: what the client's end is noted on (noteWireEnd); the session's transport unless it is a channel over it. */
  constructor(wire: object) {
    this.#wire = wire;
  }

  /** Follows the requests on `transport` and their answers. Call after everything else wrapped it: it sees every message. */
  watch(transport: Transport): void {
    const unanswered = this.#unanswered;
    const onmessage = transport.onmessage;
    const send = transport.send.bind(transport);
    transport.onmessage = (message, extra) => {
      if ("id" in message && "method" in message) unanswered.add(message.id);
      else if ("method" in message && message.method === "notifications/cancelled")
        unanswered.delete((message.params as { requestId?: RequestId } | undefined)?.requestId ?? "");
      onmessage?.(message, extra);
    };
    transport.send = (message, options) => {
      if ("id" in message && !("method" in message) && message.id !== undefined) unanswered.delete(message.id);
      return send(message, options);
    };
  }

  /** The gateway is closing the session itself. */
  closingByServer(): void {
    this.#closedByServer = true;
  }

  /** The `error.type` of the session's duration; undefined when the client ended it. */
  errorType(): string | undefined {
    const lost = this.#unanswered.size > 0 ? SESSION_ERROR_CONNECTION_LOST : undefined;
    switch (wireEnds.get(this.#wire)) {
      case "deleted":
        return undefined;
      case "stream-ended":
        return lost;
      case "lost":
        return SESSION_ERROR_CONNECTION_LOST;
      default:
        return this.#closedByServer ? SESSION_ERROR_SERVER_CLOSED : lost;
    }
  }
}
