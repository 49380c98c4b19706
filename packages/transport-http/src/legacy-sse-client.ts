import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike, Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";

export interface LegacySseClientOptions {
  url: URL;
  headers: Readonly<Record<string, string>>;
  fetch: FetchLike;
  /** The fetch of the event stream's GET. */
  eventSourceFetch: FetchLike;
  authProvider?: OAuthClientProvider | undefined;
}

/**
 * SDK 1.x's legacy HTTP+SSE client transport, loaded when it starts: only servers that need the
 * legacy transport pay for the SDK's client modules (and the `types.js` they import).
 */
export class LegacySseClient implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private readonly options: LegacySseClientOptions;
  private inner: Transport | undefined;
  private closed = false;
  private protocolVersion: string | undefined;

  constructor(options: LegacySseClientOptions) {
    this.options = options;
  }

  get sessionId(): string | undefined {
    return this.inner?.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.inner?.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- legacy SSE servers are exactly what this transport is for
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    const { url, headers, fetch, eventSourceFetch, authProvider } = this.options;
    const inner = new SSEClientTransport(url, {
      requestInit: { headers },
      fetch,
      eventSourceInit: { fetch: eventSourceFetch },
      ...(authProvider === undefined ? {} : { authProvider }),
    });
    inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => this.onmessage?.(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.onclose?.();
    if (this.protocolVersion !== undefined) inner.setProtocolVersion(this.protocolVersion);
    this.inner = inner;
    if (this.closed) return;
    await inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.inner === undefined) throw new Error("Not connected");
    await this.inner.send(message, options);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.inner === undefined) this.onclose?.();
    else await this.inner.close();
  }
}
