import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { HttpTransportError } from "./errors.js";
import type { HttpTransport } from "./http-transport.js";
import type { Logger } from "./logger.js";

/**
 * Streamable HTTP first; when the server answers the first message (initialize) with a 4xx
 * other than 401/403, the legacy SSE transport is started and the message resent — the MCP
 * spec's backwards-compatibility procedure. Auth failures do not fall back: the SSE endpoint
 * would refuse the same credentials, and the auth error is the one worth reading.
 */
export class FallbackHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  private active: HttpTransport;
  private readonly createSse: () => HttpTransport;
  private readonly logger: Logger | undefined;
  private decided = false;
  private protocolVersion: string | undefined;

  constructor(primary: HttpTransport, createSse: () => HttpTransport, logger?: Logger) {
    this.active = primary;
    this.createSse = createSse;
    this.logger = logger;
  }

  /** Which transport is in use: "streamable-http" until a fallback happened, then "sse". */
  get transportType(): "sse" | "streamable-http" {
    return this.active.transportType;
  }

  get sessionId(): string | undefined {
    return this.active.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
    this.active.setProtocolVersion(version);
  }

  async start(): Promise<void> {
    this.wire(this.active);
    await this.active.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.decided) return this.active.send(message, options);
    try {
      await this.active.send(message, options);
      this.decided = true;
    } catch (error) {
      if (!shouldFallBack(error)) throw error;
      this.decided = true;
      await this.fallBack(error);
      await this.active.send(message, options);
    }
  }

  async close(): Promise<void> {
    await this.active.close();
  }

  /** Ends the streamable HTTP session with a DELETE (nothing after a fallback: SSE has no session to end). */
  terminateSession(): Promise<void> {
    return this.active.terminateSession();
  }

  private async fallBack(reason: HttpTransportError): Promise<void> {
    const primary = this.active;
    this.logger?.info?.(
      `Streamable HTTP at ${primary.url} answered HTTP ${String(reason.status)}; falling back to SSE`,
      {
        status: reason.status,
      },
    );
    await primary.closeQuietly();
    const sse = this.createSse();
    this.wire(sse);
    this.active = sse;
    await sse.start();
    if (this.protocolVersion !== undefined) sse.setProtocolVersion(this.protocolVersion);
  }

  private wire(transport: HttpTransport): void {
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra);
    transport.onclose = () => {
      if (transport === this.active) this.onclose?.();
    };
    // The failing streamable POST was reported by the primary already; only errors of the
    // transport in use reach the caller, so a successful fallback reports nothing.
    transport.onerror = (error) => {
      if (transport === this.active && (this.decided || !shouldFallBack(error))) this.onerror?.(error);
    };
  }
}

function shouldFallBack(error: unknown): error is HttpTransportError & { status: number } {
  if (!HttpTransportError.isInstance(error) || error.status === undefined) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
}
