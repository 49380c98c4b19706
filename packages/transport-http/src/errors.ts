const ERROR_MARKER = Symbol.for("mcp-tool-adapter.error");

export type HttpTransportErrorCode =
  /** The config is unusable (bad URL, unsupported scheme). */
  | "INVALID_CONFIG"
  /** Nothing listening, DNS failure, timeout, or the connection dropped. */
  | "CONNECTION_FAILED"
  /** HTTP 401 or 403, or the auth provider could not authorize. */
  | "AUTH_FAILED"
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
export class HttpTransportError extends Error {
  override readonly name = "HttpTransportError";
  readonly code: HttpTransportErrorCode;
  readonly status?: number;
  readonly transport?: HttpTransportKind;
  readonly url?: string;
  readonly [ERROR_MARKER] = true;

  constructor(code: HttpTransportErrorCode, message: string, options: HttpTransportErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options.status !== undefined) this.status = options.status;
    if (options.transport !== undefined) this.transport = options.transport;
    if (options.url !== undefined) this.url = options.url;
  }

  /** True for an HttpTransportError from any copy of this package. */
  static isInstance(value: unknown): value is HttpTransportError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[ERROR_MARKER] === true &&
      (value as { name?: unknown }).name === "HttpTransportError"
    );
  }
}
