import type { MCPEngineRequestOptions } from "@mcp-tool-adapter/core";
import { exceedsJsonBytes } from "./call-result.js";
import { describeCause } from "./errors.js";
import { classifyFailure, reasonSuffix } from "./failure-cause.js";
import type { MCPRequestErrorKind, MCPRequestOptions, MCPRequestResult } from "./protocol-types.js";
import type { Redactor } from "./redaction.js";
import { RpcCode } from "./rpc-error.js";
import type { Session } from "./session.js";
import { clampTimer, positiveOr } from "./timeouts.js";

/** What running a resource, prompt, completion or logging request needs from the adapter. */
export interface RequestContext {
  readonly serverName: string;
  readonly redactor: Redactor;
  readonly now: () => number;
  readonly defaultTimeoutMs: number;
  readonly maxResultBytes: number | undefined;
  /** Sends one request on the session, settled when the session closes; links the caller's signal. */
  request(
    session: Session,
    request: { method: string; params?: Record<string, unknown> },
    options?: MCPEngineRequestOptions,
    signal?: AbortSignal,
  ): Promise<unknown>;
}

/** A request the adapter is about to send: what it is (for messages) and what the caller asked. */
export interface OutgoingRequest<T> {
  /** How messages name it, e.g. `resources/read of "file:///a"`. */
  readonly what: string;
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly options: MCPRequestOptions;
  /** Checks the server's answer: the data, or why it is unusable. */
  accept(raw: unknown): { data: T } | { problem: string };
}

export function requestFailure<T>(
  context: RequestContext,
  start: number,
  errorKind: MCPRequestErrorKind,
  error: string,
): MCPRequestResult<T> {
  return {
    success: false,
    data: null,
    error: context.redactor.text(error),
    durationMs: context.now() - start,
    errorKind,
  };
}

/** Sends the request and turns every way it can end into a classified result. */
export async function runRequest<T>(
  context: RequestContext,
  session: Session,
  outgoing: OutgoingRequest<T>,
  start = context.now(),
): Promise<MCPRequestResult<T>> {
  const { serverName } = context;
  const { what, options } = outgoing;
  const { signal } = options;
  if (signal?.aborted === true)
    return requestFailure(
      context,
      start,
      "cancelled",
      `cancelled: ${what} was aborted before it was sent${reasonSuffix(signal.reason)}`,
    );
  const timeoutMs = clampTimer(positiveOr(options.timeoutMs, context.defaultTimeoutMs));
  let raw: unknown;
  try {
    raw = await context.request(
      session,
      { method: outgoing.method, params: outgoing.params },
      { timeout: timeoutMs },
      signal,
    );
  } catch (error) {
    return requestFailure(context, start, ...classifyRequestError({ what, serverName, signal, timeoutMs }, error));
  }
  if (context.maxResultBytes !== undefined && exceedsJsonBytes(raw, context.maxResultBytes)) {
    return requestFailure(
      context,
      start,
      "result_too_large",
      `result too large: ${what} on MCP server "${serverName}" returned more than ${context.maxResultBytes} bytes (maxResultBytes); the result was dropped`,
    );
  }
  const accepted = outgoing.accept(raw);
  if ("problem" in accepted)
    return requestFailure(
      context,
      start,
      "server_error",
      `server error: ${what} on MCP server "${serverName}" returned an unusable result: ${accepted.problem}`,
    );
  return { success: true, data: accepted.data, error: null, durationMs: context.now() - start };
}

/**
 * The error kind of a request that rejected with `error`, as runRequest would report it (what a
 * request's client span records as `error.type`). The words of the message are not needed here.
 */
export function requestErrorKind(error: unknown, signal: AbortSignal | undefined): MCPRequestErrorKind {
  return classifyRequestError({ what: "", serverName: "", signal, timeoutMs: 0 }, error)[0];
}

/** The request that failed: what classifyRequestError's messages name. */
interface FailedRequest {
  readonly what: string;
  readonly serverName: string;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
}

function classifyRequestError(request: FailedRequest, error: unknown): [MCPRequestErrorKind, string] {
  const { what, serverName, signal, timeoutMs } = request;
  const where = `${what} on MCP server "${serverName}"`;
  const cause = classifyFailure(error, signal);
  switch (cause.kind) {
    case "connection_closed":
      return ["connection_lost", `connection lost: connection closed during ${where} (${cause.detail})`];
    case "cancelled":
      return [
        "cancelled",
        `cancelled: ${what} was aborted by the caller${reasonSuffix(cause.reason)}; the server was told to cancel`,
      ];
    case "too_large":
      return [
        "result_too_large",
        `result too large: ${where} returned more than the transport accepts: ${describeCause(cause.error)}`,
      ];
    case "timeout":
      return ["timeout", `timeout after ${timeoutMs} ms: ${where} got no answer; the server was told to cancel`];
    case "rpc_error":
      if (cause.rpcCode === RpcCode.MethodNotFound)
        return [
          "not_supported",
          `not supported: MCP server "${serverName}" does not implement ${what.split(" ")[0] ?? what}: ${cause.message}`,
        ];
      // -32002 is the spec's "resource not found".
      if (cause.rpcCode === -32002) return ["not_found", `not found: ${where}: ${cause.message}`];
      return ["server_error", `server error: ${where} failed: ${cause.message}`];
    case "send_failed":
      return [
        "connection_lost",
        `connection lost: sending ${what} to MCP server "${serverName}" failed (${cause.detail})`,
      ];
    case "transport":
      return ["server_error", `server error: ${where} failed in the transport: ${describeCause(cause.error)}`];
  }
}
