import type { MCPEngineMessage, MCPEngineRequestOptions } from "@mcp-tool-adapter/core";
import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import { describeCause } from "../errors.js";
import { requestErrorKind } from "../request-outcome.js";
import type { Session } from "../session.js";
import type { Instrumentation } from "./instrumentation.js";

/** One request to send with its client span. */
export interface TracedSend {
  readonly session: Session;
  readonly request: MCPEngineMessage;
  readonly options: MCPEngineRequestOptions;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends one request inside its client span (named after the request, see Instrumentation.start),
 * with the span's trace context in `params._meta` (a copy: the caller's params are not touched).
 * A failure ends the span with the error kind the adapter reports for it (`timeout`,
 * `connection_lost`, `cancelled`, `not_found`, ...).
 */
export async function sendTraced(
  telemetry: { readonly instrumentation: Instrumentation; readonly now: () => number },
  sent: TracedSend,
): Promise<unknown> {
  const { instrumentation, now } = telemetry;
  const { session, options, signal } = sent;
  const loading = instrumentation.ready();
  if (loading !== undefined) await loading;
  const started = now();
  const { method, params } = sent.request;
  const traced = instrumentation.start(method, params, session.connection.sessionId);
  if (traced === undefined) return session.request(sent.request, options, signal);
  const meta = params?.["_meta"];
  const carrier: Record<string, unknown> = isRecord(meta) ? { ...meta } : {};
  const request = instrumentation.inject(traced, carrier)
    ? { method, params: { ...params, _meta: carrier } }
    : sent.request;
  try {
    const result = await session.request(request, options, signal);
    instrumentation.end(traced, now() - started);
    return result;
  } catch (error) {
    instrumentation.end(traced, now() - started, {
      errorType: requestErrorKind(error, signal),
      message: describeCause(error),
    });
    throw error;
  }
}
