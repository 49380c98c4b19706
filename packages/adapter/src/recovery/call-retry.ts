import { failure, type CallOutcomeContext } from "../call-outcome.js";
import type { ToolCapability } from "@mcp-tool-adapter/capability-inference";
import type { InvokeOptions, MCPToolResult } from "../types.js";
import { isSafeToRepeat } from "./call-safety.js";
import type { SessionWait } from "./supervisor.js";

/** What one attempt of a call records for the retry decision. */
export interface CallAttempt {
  /** The request went out (it may have run on the server). */
  sent: boolean;
  /** The tool's capability (overrides applied), once it was found in the catalog. */
  capability: ToolCapability | undefined;
  /** The server refused the request for an unknown session (HTTP 404): a new session is being started. */
  sessionExpired: boolean;
}

/** One tool call under recovery: how to wait for the server and how to make one attempt. */
export interface RecoveringCall {
  readonly name: string;
  readonly start: number;
  readonly options: InvokeOptions;
  /** The call's deadline; waiting for the server to come back counts against it. */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly outcome: CallOutcomeContext;
  waitForSession(timeoutMs: number, signal: AbortSignal | undefined): Promise<SessionWait>;
  /** Throws MCPNotConnectedError: the host never connected, or disconnected. */
  notConnected(): never;
  attempt(options: InvokeOptions, attempt: CallAttempt): Promise<MCPToolResult>;
}

/**
 * Calls a tool, riding out a server that restarts: waits for the server while it is being
 * brought back, fails fast while it is down, and sends a call that a failure cut off again only
 * when that cannot repeat its work (it never reached the server, or the tool is read-only or
 * idempotent). A write that may have run is never sent again: its result says so.
 */
export async function invokeWithRecovery(call: RecoveringCall): Promise<MCPToolResult> {
  const { name, start, outcome, options } = call;
  const endsAt = performance.now() + call.timeoutMs;
  let cut: MCPToolResult | undefined;
  for (let retry = 0; ; retry += 1) {
    const remaining = Math.ceil(endsAt - performance.now());
    const wait = await call.waitForSession(remaining, options.signal);
    switch (wait.kind) {
      case "ready":
        break;
      case "not_connected":
        if (cut !== undefined) return cut;
        return call.notConnected();
      case "unavailable":
        return failure(outcome, start, "unavailable", `unavailable: tool "${name}" was not called: ${wait.message}`);
      case "timeout":
        return failure(
          outcome,
          start,
          "timeout",
          `timeout: MCP server "${outcome.serverName}" was not back within the call's ${call.timeoutMs} ms deadline; tool "${name}" was not ${cut === undefined ? "called" : "sent again"}`,
        );
      case "cancelled":
        return failure(
          outcome,
          start,
          "cancelled",
          `cancelled: the call to tool "${name}" was aborted while MCP server "${outcome.serverName}" was being brought back`,
        );
    }
    const attempt: CallAttempt = { sent: false, capability: undefined, sessionExpired: false };
    const attemptOptions =
      options.resetTimeoutOnProgress === true
        ? options
        : { ...options, timeoutMs: Math.max(1, Math.min(call.timeoutMs, Math.ceil(endsAt - performance.now()))) };
    const result = await call.attempt(attemptOptions, attempt);
    if (result.errorKind !== "connection_lost" && !attempt.sessionExpired) return result;
    if (attempt.sent && !isSafeToRepeat(attempt.capability)) return outcomeUnknown(call, result);
    if (retry >= call.maxRetries) return result;
    cut = result;
  }
}

function outcomeUnknown(call: RecoveringCall, result: MCPToolResult): MCPToolResult {
  const { name, outcome, start } = call;
  return failure(
    outcome,
    start,
    "outcome_unknown",
    `outcome unknown: tool "${name}" on MCP server "${outcome.serverName}" may or may not have run: ${result.error ?? "the connection was lost"}. It was not sent again because it is not known to be safe to repeat (neither read-only nor idempotent); check whether it took effect before calling it again.`,
  );
}
