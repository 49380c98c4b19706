import { MCPToolAdapterError } from "@mcp-tool-adapter/core";

export type HttpTransportErrorCode =
  /** The config is unusable (bad URL, unsupported scheme). */
  | "INVALID_CONFIG"
  /** Nothing listening, DNS failure, timeout, or the connection dropped. */
  | "CONNECTION_FAILED"
  /** HTTP 401 or 403, or the auth provider could not authorize. */
  | "AUTH_FAILED"
  /** The auth provider has no credentials and needs a human to log in (its message says how). */
  | "AUTH_REQUIRED"
  /** HTTP 5xx. */
  | "SERVER_ERROR"
  /** HTTP 404. */
  | "NOT_FOUND"
  /** HTTP 405. */
  | "METHOD_NOT_ALLOWED"
  /** Any other HTTP 4xx. */
  | "CLIENT_ERROR"
  /** A response the transport cannot use: unexpected status, content type, or redirect. */
  | "UNEXPECTED_RESPONSE"
  /** A response body or event larger than `maxMessageBytes`. */
  | "MESSAGE_TOO_LARGE"
  /** The request was aborted because the transport was closed. */
  | "ABORTED"
  /** `send` before `start`, or after `close`. */
  | "NOT_CONNECTED"
  /** Anything else the SDK transport reported. */
  | "TRANSPORT_ERROR";

export type HttpTransportKind = "sse" | "streamable-http";

export interface HttpTransportErrorOptions {
  transport?: HttpTransportKind;
  /** The endpoint without userinfo or query. */
  url?: string;
  status?: number;
  cause?: unknown;
}

/** Every failure the HTTP transports raise or report. Messages and causes never carry secrets. */
export class HttpTransportError extends MCPToolAdapterError<HttpTransportErrorCode> {
  static override readonly errorName: string = "HttpTransportError";
  readonly status?: number;
  readonly transport?: HttpTransportKind;
  readonly url?: string;

  constructor(code: HttpTransportErrorCode, message: string, options: HttpTransportErrorOptions = {}) {
    super(code, message, options);
    if (options.status !== undefined) this.status = options.status;
    if (options.transport !== undefined) this.transport = options.transport;
    if (options.url !== undefined) this.url = options.url;
  }
}
