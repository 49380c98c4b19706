import { relayTransportEvents } from "@mcp-tool-adapter/core";
import { endTransportSession, type RelatedRequestTags } from "@mcp-tool-adapter/core/protocol";
import type { JSONRPCMessage, Transport, TransportSendOptions } from "@modelcontextprotocol/client";

/**
 * Sits between the v2 Client and the transport so that a response whose `result` is not an object
 * (an MCP 1.4.0 server answering tools/call with a bare content list) reaches the Client as the
 * 2024-10-07 shape `{ content: [], toolResult: <the result> }`, which the adapter turns into
 * content as it does for the default engine. The SDK would otherwise drop such a message and the
 * call would wait for its deadline. Everything else passes through untouched, shown on the way to
 * `links` (which of the host's requests a server's request belongs to, when the transport says).
 */
export class LegacyResultTransport implements Transport {
  readonly #inner: Transport;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];

  readonly #links: RelatedRequestTags;

  constructor(inner: Transport, links: RelatedRequestTags) {
    this.#inner = inner;
    this.#links = links;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#inner.setSupportedProtocolVersions?.(versions);
  }

  async start(): Promise<void> {
    const links = this.#links;
    relayTransportEvents(this.#inner, this, (message, extra) => {
      links.received(message, extra);
      this.onmessage?.(withObjectResult(message), extra);
    });
    await this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#links.sent(message);
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** The DELETE that ends the inner transport's session, when it has one. */
  terminateSession(): Promise<void> {
    return endTransportSession(this.#inner);
  }

  /** Streamable HTTP's per-request streams (the SDK aborts one request's stream on 2026-07-28). */
  get hasPerRequestStream(): boolean | undefined {
    return this.#inner.hasPerRequestStream;
  }
}

function withObjectResult<T extends JSONRPCMessage>(message: T): T {
  if (!("result" in message)) return message;
  const result: unknown = message.result;
  if (typeof result === "object" && result !== null && !Array.isArray(result)) return message;
  return { ...message, result: { content: [], toolResult: result } };
}
