import type { MCPEngineRequestOptions } from "@mcp-tool-adapter/core";
import { exceedsJsonBytes } from "./call-result.js";
import { describeCause } from "./errors.js";
import { classifyFailure, reasonSuffix, type FailureCause } from "./failure-cause.js";
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
 * The error kind of a request that rejected with `error`, as runRequest reports it (what a
 * request's client span records as `error.type`): the same rule, without the message's words.
 */
export function requestErrorKind(error: unknown, signal: AbortSignal | undefined): MCPRequestErrorKind {
  return errorKindOf(classifyFailure(error, signal));
}

/** Which kind of request failure a cause is: the one rule runRequest and the client span share. */
function errorKindOf(cause: FailureCause): MCPRequestErrorKind {
  switch (cause.kind) {
    case "connection_closed":
    case "send_failed":
      return "connection_lost";
    case "cancelled":
      return "cancelled";
    case "too_large":
      return "result_too_large";
    case "timeout":
      return "timeout";
    case "rpc_error":
      if (cause.rpcCode === RpcCode.MethodNotFound) return "not_supported";
      // -32002 is the spec's "resource not found".
      if (cause.rpcCode === -32002) return "not_found";
      return "server_error";
    case "transport":
      return "server_error";
  }
}

/** The request that failed: what a failure's message names. */
interface FailedRequest {
  readonly what: string;
  readonly serverName: string;
  readonly timeoutMs: number;
}

/** A failed request's kind (errorKindOf) and the message saying what happened to it. */
function classifyRequestError(
  request: FailedRequest & { readonly signal: AbortSignal | undefined },
  error: unknown,
): [MCPRequestErrorKind, string] {
  const cause = classifyFailure(error, request.signal);
  return [errorKindOf(cause), failureMessage(request, cause)];
}

function failureMessage(request: FailedRequest, cause: FailureCause): string {
  const { what, serverName, timeoutMs } = request;
  const where = `${what} on MCP server "${serverName}"`;
  switch (cause.kind) {
    case "connection_closed":
      return `connection lost: connection closed during ${where} (${cause.detail})`;
    case "cancelled":
      return `cancelled: ${what} was aborted by the caller${reasonSuffix(cause.reason)}; the server was told to cancel`;
    case "too_large":
      return `result too large: ${where} returned more than the transport accepts: ${describeCause(cause.error)}`;
    case "timeout":
      return `timeout after ${timeoutMs} ms: ${where} got no answer; the server was told to cancel`;
    case "rpc_error":
      if (cause.rpcCode === RpcCode.MethodNotFound)
        return `not supported: MCP server "${serverName}" does not implement ${what.split(" ")[0] ?? what}: ${cause.message}`;
      if (cause.rpcCode === -32002) return `not found: ${where}: ${cause.message}`;
      return `server error: ${where} failed: ${cause.message}`;
    case "send_failed":
      return `connection lost: sending ${what} to MCP server "${serverName}" failed (${cause.detail})`;
    case "transport":
      return `server error: ${where} failed in the transport: ${describeCause(cause.error)}`;
  }
}
