import type { FaultBehavior, RecordedRequest } from "./http-servers.js";
import type { PassedRequest, RecordingProxy } from "./recording-proxy.js";

/**
 * server-everything's status for a request on a session it does not know (or no longer knows):
 * 400, where the spec's 2025-03-26 "Session Management" says 404.
 */
export const EVERYTHING_UNKNOWN_SESSION_STATUS = 400;

/**
 * A fault server's plan for a minimal 2025-era streamable HTTP server: `initialize` opens session
 * `sessionId`, notifications get 202, every other request `onOther` (default: an empty tool list),
 * a GET 405 (no server stream), and the DELETE that ends the session `onDelete`: how a client's
 * close copes with a DELETE answered badly, slowly or never.
 */
export function sessionFaultPlan(
  sessionId: string,
  onDelete: FaultBehavior,
  onOther?: FaultBehavior,
): (request: RecordedRequest) => FaultBehavior {
  return (request) => {
    if (request.method === "DELETE") return onDelete;
    if (request.method === "GET") return { kind: "status", status: 405 };
    const message = JSON.parse(request.body) as { id?: number; method: string };
    if (message.method === "initialize") {
      return {
        kind: "status",
        status: 200,
        headers: { "mcp-session-id": sessionId },
        body: {
          jsonrpc: "2.0",
          id: message.id ?? 0,
          result: {
            protocolVersion: "2025-06-18",
            capabilities: { tools: {} },
            serverInfo: { name: "fault", version: "1.0.0" },
          },
        },
      };
    }
    if (message.id === undefined) return { kind: "status", status: 202 };
    return onOther ?? { kind: "status", status: 200, body: { jsonrpc: "2.0", id: message.id, result: { tools: [] } } };
  };
}

/** A `tools/list` by hand on session `sessionId` of a 2025-era server at `url`: the status it answers. */
export async function statusOfRequestInSession(url: string, sessionId: string): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-06-18",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The session ids a client sent through `proxy`, each once, in the order they first appeared. */
export function sessionsSeenBy(proxy: RecordingProxy): string[] {
  return [
    ...new Set(proxy.requests.flatMap((request) => (request.sessionId === undefined ? [] : [request.sessionId]))),
  ];
}

/** The DELETEs a client sent through `proxy`: the session each named and the upstream's status. */
export function deletesSeenBy(proxy: RecordingProxy): { sessionId: string | undefined; status: number | undefined }[] {
  return proxy.requests
    .filter((request) => request.method === "DELETE")
    .map(({ sessionId, status }) => ({ sessionId, status }));
}

/** A POST's JSON-RPC method (a batch's, joined with commas), or its body as is when it is no JSON-RPC. */
function rpcMethodsOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { method?: unknown } | { method?: unknown }[];
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.map((message) => (typeof message.method === "string" ? message.method : "(response)")).join(",");
  } catch {
    return body;
  }
}

/**
 * What a client sent through `proxy`, in arrival order, with the upstream's status: `DELETE`,
 * `GET`, or `POST <JSON-RPC method>` (`POST notifications/cancelled`, `POST tools/call`), so a
 * test sees which went out before which.
 */
export function exchangesSeenBy(proxy: RecordingProxy): { sent: string; status: number | undefined }[] {
  return proxy.requests.map(({ method, body, status }) => ({
    sent: method === "POST" ? `POST ${rpcMethodsOf(body)}` : method,
    status,
  }));
}

/**
 * A recording proxy's `hold` for the `notifications/cancelled` POSTs: each is passed on `delayMs`
 * after it arrived (`Infinity`: never, nor answered), the rest at once; a server slow (or hung) on
 * the cancellation a disconnect sends for a call in flight.
 */
export function holdingCancellations(delayMs: number): (request: PassedRequest) => number | undefined {
  return (request) => (rpcMethodsOf(request.body) === "notifications/cancelled" ? delayMs : undefined);
}

/**
 * Starts server-everything's `trigger-long-running-operation` (30 s) with `invoke` and resolves
 * once `proxy` passed its `tools/call` POST on (within `withinMs`): a call in flight at the
 * server, its `outcome` still to come.
 */
export async function slowCallInFlight<T>(
  proxy: RecordingProxy,
  invoke: (tool: string, args: Record<string, unknown>) => Promise<T>,
  withinMs = 5_000,
): Promise<{ outcome: Promise<T> }> {
  const outcome = invoke("trigger-long-running-operation", { duration: 30, steps: 30 });
  const giveUpAt = Date.now() + withinMs;
  while (!exchangesSeenBy(proxy).some(({ sent }) => sent === "POST tools/call")) {
    if (Date.now() > giveUpAt) throw new Error(`no tools/call reached the proxy within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { outcome };
}
