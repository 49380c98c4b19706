import type { ServerResponse } from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

// Server-sent events as the 2025-era streamable HTTP transport writes them: one `message` event per
// JSON-RPC message, and a comment now and then so proxies do not close a quiet stream.

/** How often a quiet stream gets a keep-alive comment (the SDK's interval). */
export const KEEP_ALIVE_MS = 15_000;

/** The response headers of an event stream (proxies are told not to buffer or transform it). */
export function eventStreamHeaders(sessionId: string): Record<string, string> {
  return {
    "content-type": "text/event-stream",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    "mcp-session-id": sessionId,
  };
}

/**
 * One message already serialized (a JSON body this gateway answered with) as an SSE event, each of
 * its lines a data line: a JSON text may span lines, and an event's data may not.
 */
export function eventOfJsonText(json: string): string {
  return `event: message\n${json
    .split(/\r?\n/)
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;
}

/** One message as an SSE event: the message's one serialization. */
export function eventText(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Writes a keep-alive comment every `intervalMs` until the returned stop is called (when the stream ends). */
export function keepAlive(response: ServerResponse, intervalMs: number): () => void {
  const timer = setInterval(() => {
    if (!response.writableEnded) response.write(": keepalive\n\n");
  }, intervalMs);
  return () => clearInterval(timer);
}
