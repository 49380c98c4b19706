import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { relayTransportEvents } from "@mcp-tool-adapter/core";
import type { RelatedRequestTags } from "@mcp-tool-adapter/core/protocol";
import { textOf } from "./call-result.js";

/**
 * Sits between the SDK Client and the real transport so that a response whose `result` is not
 * an object (an MCP 1.4.0 server answering tools/call with a bare content list) reaches the
 * Client as `{ content: [...] }`. The SDK would otherwise drop such a message as an "unknown
 * message type" and the call would hang until its deadline. Everything else passes through,
 * shown on the way to `links` (which of the host's requests a server's request belongs to).
 */
export class LegacyResultTransport implements Transport {
  readonly inner: Transport;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: Transport["onmessage"];

  readonly #links: RelatedRequestTags;

  constructor(inner: Transport, links: RelatedRequestTags) {
    this.inner = inner;
    this.#links = links;
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The revision the handshake settled on (the SDK tells the transport after initialize). */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    const links = this.#links;
    relayTransportEvents(this.inner, this, (message, extra) => {
      links.received(message, extra);
      this.onmessage?.(wrapBareResult(message), extra);
    });
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#links.sent(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The message with a non-object `result` turned into `{ content: [...] }` (see LegacyResultTransport). */
export function wrapBareResult<T extends JSONRPCMessage>(message: T): T {
  if (!("result" in message)) return message;
  const result: unknown = message.result;
  if (typeof result === "object" && result !== null && !Array.isArray(result)) return message;
  const content: unknown[] = Array.isArray(result)
    ? result
    : result === null || result === undefined
      ? []
      : [{ type: "text", text: textOf(result) }];
  return { ...message, result: { content } };
}
