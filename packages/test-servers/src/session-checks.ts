import type { FaultBehavior, RecordedRequest } from "./http-servers.js";
import type { RecordingProxy } from "./recording-proxy.js";

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
