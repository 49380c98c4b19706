/**
 * `@mcp-tool-adapter/core/protocol`: the MCP protocol facts every engine shares, stated once.
 * An engine (the adapter's built-in ones, engine-2026, a user's own `MCPEngine`) subscribes to
 * exactly these notifications and registers handlers for exactly these requests, so a new one
 * is added here and each engine's type check then asks for it.
 */

/** The server notifications the adapter follows; an engine passes each to its `notification` listener. */
export const MCP_FOLLOWED_NOTIFICATIONS = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
  "notifications/prompts/list_changed",
  "notifications/message",
] as const;

/** One of the notifications the adapter follows. */
export type MCPFollowedNotification = (typeof MCP_FOLLOWED_NOTIFICATIONS)[number];

/** The MCP log levels, least to most severe (RFC 5424 severities): `logging/setLevel` and log notifications use them. */
export const MCP_LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** The server-to-client requests the adapter can answer, each with the client capability it needs. */
export const MCP_ANSWERED_REQUESTS = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
  // The client side of MCP tasks: a server follows the elicitation or sampling it asked us to run as a task.
  "tasks/get": "tasks",
  "tasks/result": "tasks",
  "tasks/list": "tasks",
  "tasks/cancel": "tasks",
} as const;

/** One of the server-to-client requests the adapter can answer. */
export type MCPAnsweredRequest = keyof typeof MCP_ANSWERED_REQUESTS;

/** The methods of {@link MCP_ANSWERED_REQUESTS}, in order. */
export const MCP_ANSWERED_REQUEST_METHODS = Object.keys(MCP_ANSWERED_REQUESTS) as readonly MCPAnsweredRequest[];

/** Whether `method` is one of the server-to-client requests the adapter can answer (own keys only). */
export function isAnsweredRequest(method: string): method is MCPAnsweredRequest {
  return Object.hasOwn(MCP_ANSWERED_REQUESTS, method);
}

export { RelatedRequestTags } from "./related-requests.js";

/**
 * Ends a 2025-era streamable HTTP session the way the SDKs' transports offer it: their
 * `terminateSession()` (an HTTP `DELETE` with the `Mcp-Session-Id`; nothing when there is no
 * session). A transport without it (stdio, SSE, a user's own) has no session to end: resolves at
 * once. Whoever calls this bounds it and ignores its failure: ending the session is a courtesy to
 * the server, never a reason for a close to fail or wait.
 */
export function endTransportSession(transport: object): Promise<void> {
  const end = (transport as { terminateSession?: unknown }).terminateSession;
  return typeof end === "function" ? (end.call(transport) as Promise<void>) : Promise.resolve();
}
