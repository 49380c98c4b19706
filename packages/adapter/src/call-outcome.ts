import type { SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { contentText, exceedsJsonBytes, normalizeCallResult } from "./call-result.js";
import { describeCause } from "./errors.js";
import type { Redactor } from "./redaction.js";
import { classifyFailure, reasonSuffix } from "./failure-cause.js";
import type { CatalogEntry } from "./tool-catalog.js";
import type { MCPToolErrorKind, MCPToolResult, MCPToolResultData } from "./types.js";

// Kept on this module for the call path that quotes an abort before a call is sent.
export { reasonSuffix } from "./failure-cause.js";

/** What turning a tool call into an MCPToolResult needs from the adapter. */
export interface CallOutcomeContext {
  readonly serverName: string;
  readonly maxResultBytes: number | undefined;
  readonly validator: SchemaValidator;
  readonly redactor: Redactor;
  readonly now: () => number;
}

/** A failed result, its message redacted, timed from `start`. */
export function failure(
  context: CallOutcomeContext,
  start: number,
  errorKind: MCPToolErrorKind,
  error: string,
): MCPToolResult {
  return failureWithData(context, start, { errorKind, error }, null);
}

/** A failed result that keeps what the server answered beside the message (an isError result, an output its schema refused). */
export function failureWithData(
  context: CallOutcomeContext,
  start: number,
  failed: { readonly errorKind: MCPToolErrorKind; readonly error: string },
  data: MCPToolResultData | null,
): MCPToolResult {
  return {
    success: false,
    data,
    error: context.redactor.text(failed.error),
    durationMs: context.now() - start,
    errorKind: failed.errorKind,
  };
}

/** The call whose request rejected: what callFailure's messages name. */
export interface FailedCall {
  readonly start: number;
  readonly name: string;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number;
  readonly maxTotalMs: number | undefined;
}

/** The result of a call whose request rejected with `error`, classified into an error kind. */
export function callFailure(context: CallOutcomeContext, call: FailedCall, error: unknown): MCPToolResult {
  const { serverName } = context;
  const { start, name, signal, timeoutMs, maxTotalMs } = call;
  const tool = `tool "${name}" on MCP server "${serverName}"`;
  const cause = classifyFailure(error, signal);
  switch (cause.kind) {
    case "connection_closed":
      return failure(
        context,
        start,
        "connection_lost",
        `connection lost: connection closed while calling ${tool} (${cause.detail})`,
      );
    case "cancelled":
      return failure(
        context,
        start,
        "cancelled",
        `cancelled: the call to tool "${name}" was aborted by the caller${reasonSuffix(cause.reason)}; the server was told to cancel`,
      );
    case "timeout": {
      const total = cause.totalExceeded && maxTotalMs !== undefined;
      return failure(
        context,
        start,
        "timeout",
        `timeout after ${total ? maxTotalMs : timeoutMs} ms: ${tool} did not answer${total ? " within its maximum total time" : ""}; the server was told to cancel`,
      );
    }
    case "too_large":
      return tooLargeForTransport(context, start, name, cause.error);
    case "rpc_error":
      return failure(context, start, "server_error", `server error: ${tool} failed: ${cause.message}`);
    case "send_failed":
      return failure(
        context,
        start,
        "connection_lost",
        `connection lost: sending the call to ${tool} failed (${cause.detail})`,
      );
    case "transport":
      return failure(
        context,
        start,
        "server_error",
        `server error: calling ${tool} failed in the transport: ${describeCause(cause.error)}`,
      );
  }
}

function tooLargeForTransport(context: CallOutcomeContext, start: number, name: string, error: unknown): MCPToolResult {
  const limit =
    context.maxResultBytes === undefined
      ? "more than the transport accepts"
      : `more than maxResultBytes (${context.maxResultBytes} bytes) allows`;
  return failure(
    context,
    start,
    "result_too_large",
    `result too large: tool "${name}" on MCP server "${context.serverName}" returned ${limit}; the transport dropped it: ${describeCause(error)}`,
  );
}

/** The result of a call the server answered: size-checked, normalised, and its output validated. */
export function callResult(
  context: CallOutcomeContext,
  start: number,
  raw: unknown,
  entry: CatalogEntry,
): MCPToolResult {
  const { name } = entry.descriptor;
  if (context.maxResultBytes !== undefined && exceedsJsonBytes(raw, context.maxResultBytes)) {
    return failure(
      context,
      start,
      "result_too_large",
      `result too large: tool "${name}" on MCP server "${context.serverName}" returned more than ${context.maxResultBytes} bytes (maxResultBytes); the result was dropped`,
    );
  }
  const data = normalizeCallResult(raw);
  if (data.isError === true) {
    const text = contentText(data);
    return failureWithData(
      context,
      start,
      {
        errorKind: "server_error",
        error: `server error: ${text === "" ? `tool "${name}" reported an error without a message` : text}`,
      },
      data,
    );
  }
  const invalidOutput = entry.checkOutput(data.structuredContent, context.validator);
  if (invalidOutput !== undefined)
    return failureWithData(context, start, { errorKind: "validation", error: invalidOutput }, data);
  return { success: true, data, error: null, durationMs: context.now() - start };
}
