import { MCPProtocolError, RPC_CONNECTION_CLOSED } from "./engine.js";

/** Bad Gateway, Service Unavailable, Gateway Timeout: what a proxy answers when the exchange behind it failed. */
const CUT_OFF_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** A JSON-RPC error object, as an HTTP error answer may carry it. */
export interface JsonRpcErrorAnswer {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/**
 * The JSON-RPC error an HTTP error answer carries, read from `text`: the response body, or an
 * error message that quotes it (from its first `{`). A server answers some JSON-RPC errors with a
 * non-2xx status; that answer, not the status, says what went wrong.
 */
export function jsonRpcErrorIn(text: string): JsonRpcErrorAnswer | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(text.slice(start)) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const { code, message, data } = parsed.error ?? {};
    return typeof code === "number" && typeof message === "string" ? { code, message, data } : undefined;
  } catch {
    return undefined;
  }
}

/** A request's HTTP error answer: its status and what it said (the body, or a message quoting it). */
export interface HttpErrorAnswer {
  readonly status: number;
  readonly text: string;
  /** What the failure is described as after the rule's own words. Default: `text`. */
  readonly detail?: string;
  readonly cause?: unknown;
}

/**
 * The rule for a request answered by a proxy's 502, 503 or 504 without a JSON-RPC answer: the
 * request was cut off between us and the server (e.g. the server process behind a load balancer
 * died mid-call). That is a connection lost in flight, so it fails with the closed-connection code
 * (`RPC_CONNECTION_CLOSED`, `data: { status }`) and the adapter's recovery decides as it does for
 * one: sent again only when safe to repeat. Undefined for any other answer. Both HTTP eras read a
 * proxy's answer with this one rule (engine-2026, and transport-http's 2025-era transport).
 */
export function cutOffByProxy(answer: HttpErrorAnswer): MCPProtocolError | undefined {
  if (!CUT_OFF_STATUSES.has(answer.status) || jsonRpcErrorIn(answer.text) !== undefined) return undefined;
  return new MCPProtocolError(
    RPC_CONNECTION_CLOSED,
    `The request was cut off on its way to or from the server (HTTP ${answer.status} from a proxy in between): ${answer.detail ?? answer.text}`,
    { cause: answer.cause, data: { status: answer.status } },
  );
}
