import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { inRequestSpan, tracingOn, type SpanConnection } from "./request-span.js";

/**
 * The requests a 2025-era session's SDK `Server` answers on its own, without a handler of the
 * gateway's: replacing them would mean copying what the SDK does (initialize's negotiation, the
 * log level it keeps per session), so their spans come from the message stream instead.
 */
const SDK_ANSWERED: ReadonlySet<string> = new Set(["initialize", "ping", "logging/setLevel"]);

/** A request's span waiting for its response to go out. */
interface Waiting {
  answered(result: unknown): void;
  failed(error: unknown): void;
}

/**
 * Gives the requests the SDK answers on `transport` (see SDK_ANSWERED) a SERVER span each, the
 * same as the gateway's own handlers' (inRequestSpan): it starts when the request comes in and ends
 * when its response is sent, or when the connection closes first. Call after `server.connect`:
 * the SDK's callbacks are wrapped, not replaced. With nothing traced, a request costs one lookup.
 */
export function spanSdkAnsweredRequests(transport: Transport, connection: SpanConnection): void {
  const waiting = new Map<RequestId, Waiting>();
  const sdkOnMessage = transport.onmessage;
  const sdkOnClose = transport.onclose;
  const send = transport.send.bind(transport);

  transport.onmessage = (message, extra) => {
    if ("method" in message && "id" in message && SDK_ANSWERED.has(message.method) && tracingOn(connection))
      spanUntilAnswered(message, connection, waiting);
    sdkOnMessage?.(message, extra);
  };
  transport.send = (message, options) => {
    if (waiting.size > 0 && "id" in message && message.id !== undefined && !("method" in message)) {
      const span = waiting.get(message.id);
      waiting.delete(message.id);
      if (span !== undefined) {
        if ("error" in message) span.failed(message.error);
        else span.answered(message.result);
      }
    }
    return send(message, options);
  };
  transport.onclose = () => {
    for (const span of waiting.values()) span.failed(new Error("The connection closed before the answer."));
    waiting.clear();
    sdkOnClose?.();
  };
}

function spanUntilAnswered(
  request: JSONRPCMessage & { method: string; id: RequestId; params?: unknown },
  connection: SpanConnection,
  waiting: Map<RequestId, Waiting>,
): void {
  const params = isRecord(request.params) ? request.params : undefined;
  const answer = new Promise<unknown>((resolve, reject) => {
    waiting.set(request.id, {
      answered: (result) => {
        // The revision the session's initialize agreed on: on every later span of the session.
        if (request.method === "initialize" && isRecord(result) && typeof result["protocolVersion"] === "string")
          connection.protocolVersion = result["protocolVersion"];
        resolve(result);
      },
      // The JSON-RPC error object as it went out: its code is what the span records.
      failed: (error) => {
        reject(error instanceof Error ? error : Object.assign(new Error(errorMessage(error)), error));
      },
    });
  });
  // The span records the failure; the response itself already went to the client.
  inRequestSpan({ method: request.method, params, id: request.id }, connection, () => answer).catch(() => undefined);
}

function errorMessage(error: unknown): string {
  return isRecord(error) && typeof error["message"] === "string" ? error["message"] : String(error);
}
