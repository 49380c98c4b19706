import {
  AUTH_FAILED,
  AUTH_REQUIRED,
  cutOffByProxy,
  jsonRpcErrorIn,
  MCPProtocolError,
  MCPToolAdapterError,
  RPC_CONNECTION_CLOSED,
  RPC_REQUEST_TIMEOUT,
  type MCPToolAdapterErrorOptions,
} from "@mcp-tool-adapter/core";
import {
  InsufficientScopeError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
} from "@modelcontextprotocol/client";

/** The JSON-RPC code of "method not found": what a request the negotiated era does not carry is reported as. */
const METHOD_NOT_FOUND = -32601;
const INTERNAL_ERROR = -32603;

export type Engine2026ErrorCode =
  | "CONNECTION_FAILED"
  | "ERA_NEGOTIATION_FAILED"
  | "HTTP_ERROR"
  | "SDK_ERROR"
  | typeof AUTH_REQUIRED
  | typeof AUTH_FAILED;

/**
 * A failure of the 2026 engine that is not a JSON-RPC error: the connection is gone
 * (`CONNECTION_FAILED`, which the adapter treats as a lost connection), no era could be agreed
 * (`ERA_NEGOTIATION_FAILED`), an HTTP status without a JSON-RPC answer (`HTTP_ERROR`, with
 * `status`), a login is needed (`AUTH_REQUIRED`, the auth provider's words saying how), the
 * server refused the credentials (`AUTH_FAILED`: a 401 or 403, or the provider's own verdict), or
 * anything else the SDK reported (`SDK_ERROR`). The SDK's (or provider's) error is the `cause`.
 */
export class Engine2026Error extends MCPToolAdapterError<Engine2026ErrorCode> {
  static override readonly errorName: string = "Engine2026Error";
  /** The HTTP status, for HTTP_ERROR. */
  readonly status: number | undefined;

  constructor(
    code: Engine2026ErrorCode,
    message: string,
    options: MCPToolAdapterErrorOptions & { status?: number } = {},
  ) {
    super(code, message, options);
    this.status = options.status;
  }
}

/**
 * A request handler's failure in the SDK's terms: the seam's MCPProtocolError (or any error with a
 * numeric JSON-RPC `code`) as the SDK's ProtocolError, so the SDK answers the server with its code
 * and message on 2025. On 2026-07-28 (`modern`), where the handler answered a request embedded in
 * an `input_required` result, the failure ends the call that carried it; a timeout or closed code
 * there would read as the call's own timeout or a lost connection, so it becomes an internal error.
 */
export function toSdkHandlerError(error: unknown, modern: boolean): unknown {
  const code = MCPProtocolError.isInstance(error)
    ? error.rpcCode
    : typeof (error as { code?: unknown } | null)?.code === "number"
      ? (error as { code: number }).code
      : undefined;
  if (code === undefined) return error;
  const { message, data } = error as Error & { data?: unknown };
  const reserved = code === RPC_REQUEST_TIMEOUT || code === RPC_CONNECTION_CLOSED;
  return new ProtocolError(modern && reserved ? INTERNAL_ERROR : code, message, data);
}

/**
 * The SDK's error in the seam's plain terms: JSON-RPC errors (and the SDK's timeout and closed
 * connection) as MCPProtocolError, the rest as Engine2026Error; no SDK object is handed on except
 * as a `cause`.
 */
export function toSeamError(error: unknown): Error {
  const auth = authFailure(error);
  if (auth !== undefined) return auth;
  if (error instanceof ProtocolError) {
    return new MCPProtocolError(error.code, error.message, { cause: error, data: error.data });
  }
  if (!(error instanceof SdkError)) return error instanceof Error ? error : new Error(String(error));
  switch (error.code) {
    case SdkErrorCode.RequestTimeout:
      return new MCPProtocolError(RPC_REQUEST_TIMEOUT, error.message, { cause: error });
    case SdkErrorCode.ConnectionClosed:
      return new MCPProtocolError(RPC_CONNECTION_CLOSED, error.message, { cause: error });
    case SdkErrorCode.NotConnected:
    case SdkErrorCode.SendFailed:
    case SdkErrorCode.ClientHttpFailedToOpenStream:
      return new Engine2026Error("CONNECTION_FAILED", error.message, { cause: error });
    case SdkErrorCode.MethodNotSupportedByProtocolVersion:
      return new MCPProtocolError(METHOD_NOT_FOUND, error.message, { cause: error, data: error.data });
    case SdkErrorCode.EraNegotiationFailed:
      return new Engine2026Error("ERA_NEGOTIATION_FAILED", error.message, { cause: error });
    default:
      return httpError(error) ?? new Engine2026Error("SDK_ERROR", error.message, { cause: error });
  }
}

const AUTH_ADVICE =
  "Check the credentials in the server config (the Authorization header or token), or pass an authProvider for OAuth.";

/**
 * An authorization failure, classified as the default engine's HTTP transport does: the auth
 * provider's own verdict (e.g. @mcp-tool-adapter/oauth's "needs a login") keeps its code and
 * words; the SDK's "unauthorized" and a 401 or 403 it gave up on are AUTH_FAILED.
 */
function authFailure(error: unknown): Engine2026Error | undefined {
  const verdict = providerVerdict(error);
  if (verdict !== undefined) {
    return new Engine2026Error(verdict.code, `The server needs authorization: ${verdict.message}`, { cause: error });
  }
  if (error instanceof UnauthorizedError || error instanceof InsufficientScopeError) {
    return new Engine2026Error(AUTH_FAILED, `Authentication failed: ${error.message}. ${AUTH_ADVICE}`, {
      cause: error,
    });
  }
  const status = error instanceof SdkError ? (error.data as { status?: unknown } | undefined)?.status : undefined;
  if (status === 401 || status === 403) {
    return new Engine2026Error(
      AUTH_FAILED,
      `${status === 401 ? "Authentication" : "Authorization"} failed (HTTP ${status}): ${(error as Error).message}. ${AUTH_ADVICE}`,
      { cause: error, status },
    );
  }
  return undefined;
}

/** The auth provider's AUTH_REQUIRED or AUTH_FAILED, where the SDK passed it on (itself or as a cause). */
function providerVerdict(error: unknown): MCPToolAdapterError<typeof AUTH_REQUIRED | typeof AUTH_FAILED> | undefined {
  for (let link = error, depth = 0; link instanceof Error && depth < 5; link = link.cause, depth += 1) {
    if (MCPToolAdapterError.isInstance(link) && (link.code === AUTH_REQUIRED || link.code === AUTH_FAILED)) {
      return link as MCPToolAdapterError<typeof AUTH_REQUIRED | typeof AUTH_FAILED>;
    }
  }
  return undefined;
}

/**
 * An HTTP failure. A 2026 server answers some JSON-RPC errors with a non-2xx status; the SDK then
 * reports the status with the JSON-RPC answer in its message, which is the part that says what
 * went wrong.
 */
function httpError(error: SdkError): Error | undefined {
  const status = (error.data as { status?: unknown } | undefined)?.status;
  if (typeof status !== "number") return undefined;
  const rpc = jsonRpcErrorIn(error.message);
  if (rpc !== undefined) return new MCPProtocolError(rpc.code, rpc.message, { cause: error, data: rpc.data });
  // On 2026-07-28 each request is its own exchange: a proxy's 502/503/504 is the stateless form of
  // a connection lost in flight (core's rule, which the 2025-era HTTP transport follows too).
  const cutOff = cutOffByProxy({ status, text: error.message, cause: error });
  if (cutOff !== undefined) return cutOff;
  return new Engine2026Error("HTTP_ERROR", error.message, { cause: error, status });
}
