import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { MCPEngineRequestOptions } from "@mcp-tool-adapter/core";
import { exceedsJsonBytes } from "./call-result.js";
import { reasonSuffix } from "./call-outcome.js";
import { describeCause } from "./errors.js";
import type { MCPRequestErrorKind, MCPRequestOptions, MCPRequestResult } from "./protocol-types.js";
import type { Redactor } from "./redaction.js";
import { ConnectionLost, type Session } from "./session.js";
import { clampTimer, positiveOr } from "./timeouts.js";
import { describeTransportFailure, isConnectionGone, isMessageTooLarge, rpcCodeOf } from "./transport-failure.js";

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
    return requestFailure(context, start, ...classifyRequestError(what, serverName, error, signal, timeoutMs));
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

function classifyRequestError(
  what: string,
  serverName: string,
  error: unknown,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): [MCPRequestErrorKind, string] {
  if (error instanceof ConnectionLost)
    return [
      "connection_lost",
      `connection lost: connection closed during ${what} on MCP server "${serverName}" (${error.why})`,
    ];
  if (signal?.aborted === true)
    return [
      "cancelled",
      `cancelled: ${what} was aborted by the caller${reasonSuffix(signal.reason)}; the server was told to cancel`,
    ];
  if (isMessageTooLarge(error))
    return [
      "result_too_large",
      `result too large: ${what} on MCP server "${serverName}" returned more than the transport accepts: ${describeCause(error)}`,
    ];
  const rpcCode = rpcCodeOf(error);
  if (rpcCode !== undefined) {
    const { message } = error as Error;
    if (rpcCode === (ErrorCode.RequestTimeout as number))
      return [
        "timeout",
        `timeout after ${timeoutMs} ms: ${what} on MCP server "${serverName}" got no answer; the server was told to cancel`,
      ];
    if (rpcCode === (ErrorCode.ConnectionClosed as number))
      return [
        "connection_lost",
        `connection lost: connection closed during ${what} on MCP server "${serverName}" (${message})`,
      ];
    if (rpcCode === (ErrorCode.MethodNotFound as number))
      return [
        "not_supported",
        `not supported: MCP server "${serverName}" does not implement ${what.split(" ")[0] ?? what}: ${message}`,
      ];
    // -32002 is the spec's "resource not found".
    if (rpcCode === -32002) return ["not_found", `not found: ${what} on MCP server "${serverName}": ${message}`];
    return ["server_error", `server error: ${what} on MCP server "${serverName}" failed: ${message}`];
  }
  if (isConnectionGone(error))
    return [
      "connection_lost",
      `connection lost: sending ${what} to MCP server "${serverName}" failed (${describeTransportFailure(error)})`,
    ];
  return [
    "server_error",
    `server error: ${what} on MCP server "${serverName}" failed in the transport: ${describeCause(error)}`,
  ];
}
