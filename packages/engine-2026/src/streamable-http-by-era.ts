import { endTransportSession } from "@mcp-tool-adapter/core/protocol";
import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/client";

/**
 * Streamable HTTP with one transport per era, behind one Transport for the v2 Client: SDK v2's own
 * transport (`modern`) carries the `server/discover` probe and every 2026-07-28 message, and from
 * the 2025 handshake's `initialize` on, every message goes through `legacy` (transport-http's client,
 * built then), which reports which POST's response stream carried a server's request
 * (`extra.relatedRequestId`): the one link from a 2025 server's elicitation or sampling to the call
 * it is about, which SDK v2's transport does not report. Nothing else changes course: a connection
 * either sends `initialize` before anything but the probe (`auto` found 2025, or `protocol: "2025"`)
 * or never (2026-07-28).
 *
 * The modern transport is built at once (unstarted, it holds nothing) and started with this one;
 * the legacy one is made (and its module loaded) at the handshake. When the handshake moves the
 * connection on, the modern one is closed without a word to the Client: its close and errors
 * after that are its own, not the connection's.
 */
export class StreamableHttpByEra implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];

  /** The transport messages go to now: the modern one until the 2025 handshake, then the legacy one. */
  #current: Transport;
  readonly #modern: Transport;
  readonly #legacy: () => Promise<Transport>;
  #handshake = false;
  #closed = false;

  constructor(modern: Transport, legacy: () => Promise<Transport>) {
    this.#modern = modern;
    this.#current = modern;
    this.#legacy = legacy;
  }

  get sessionId(): string | undefined {
    return this.#current.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#current.setProtocolVersion?.(version);
  }

  /** True while SDK v2's transport carries the connection (2026-07-28 aborts a request's own stream). */
  get hasPerRequestStream(): boolean | undefined {
    return this.#current.hasPerRequestStream;
  }

  start(): Promise<void> {
    return this.#attach(this.#modern).start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.#handshake && isInitializeRequest(message)) return this.#moveOn(message, options);
    return this.#current.send(message, options);
  }

  close(): Promise<void> {
    this.#closed = true;
    return this.#current.close();
  }

  /**
   * Ends a 2025-era session (transport-http's client sends the DELETE). Nothing before the 2025
   * handshake or on 2026-07-28: SDK v2's transport then carries a stateless connection, with no
   * session to end.
   */
  terminateSession(): Promise<void> {
    if (!this.#handshake || this.#closed) return Promise.resolve();
    return endTransportSession(this.#current);
  }

  /** The 2025 handshake: the legacy transport takes over, and carries `initialize` first. */
  async #moveOn(message: JSONRPCMessage, options: TransportSendOptions | undefined): Promise<void> {
    this.#handshake = true;
    const legacy = await this.#legacy();
    // Closed while the legacy transport was being made: the Client heard the close and gave up on `initialize`.
    if (this.#closed) throw new Error("The streamable HTTP transport was closed before the initialize handshake.");
    this.#current = this.#attach(legacy);
    // It ran the probe at most, and holds no stream: its close is over before it returns.
    void this.#modern.close().catch(() => undefined);
    await legacy.start();
    await legacy.send(message, options);
  }

  /** Hands `inner`'s events on while it is the current transport. */
  #attach(inner: Transport): Transport {
    inner.onmessage = (message, extra) => {
      if (this.#current === inner) this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => {
      if (this.#current === inner) this.onerror?.(error);
    };
    inner.onclose = () => {
      if (this.#current === inner) this.onclose?.();
    };
    return inner;
  }
}

function isInitializeRequest(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "initialize" && "id" in message;
}
