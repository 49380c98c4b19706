import type { IncomingMessage } from "node:http";
import { isJsonContentType } from "@modelcontextprotocol/server";
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { GatewayError } from "./errors.js";
import { isJsonRpcMessage } from "./json-rpc-envelope.js";

// What the 2025-era streamable HTTP endpoint refuses before a message reaches the session, with the
// HTTP statuses the SDK's transport gives (406, 415, 400), each as a GatewayError naming what to do.

/** The most messages one POST may carry (the SDK transport's limit). */
export const MAX_BATCH_MESSAGES = 100;

/** A POST's body as checked JSON-RPC messages, after its Accept, Content-Type and protocol version pass. */
export function checkPost(request: IncomingMessage, body: unknown): { messages: JSONRPCMessage[]; batch: boolean } {
  const accept = request.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    throw new GatewayError(
      "NOT_ACCEPTABLE",
      "Not Acceptable: a POST must accept both application/json and text/event-stream (the Accept header); the answer comes as either.",
    );
  }
  if (!isJsonContentType(header(request, "content-type") ?? null)) {
    throw new GatewayError("UNSUPPORTED_MEDIA_TYPE", "A POST must be sent as Content-Type: application/json.");
  }
  checkProtocolVersion(request);
  const batch = Array.isArray(body);
  const messages: unknown[] = batch ? body : [body];
  if (messages.length > MAX_BATCH_MESSAGES) {
    throw new GatewayError(
      "BAD_REQUEST",
      `A batch may carry at most ${MAX_BATCH_MESSAGES} messages and this one has ${messages.length}: send them in several POSTs.`,
    );
  }
  if (messages.length === 0 || !messages.every(isJsonRpcMessage)) {
    throw new GatewayError(
      "BAD_REQUEST",
      'The body is not a JSON-RPC 2.0 message (or batch of them): each needs jsonrpc "2.0" and a method, or an id with a result or error.',
    );
  }
  return { messages, batch };
}

/** A GET opens the session's event stream, so it must accept one. */
export function checkGet(request: IncomingMessage): void {
  if (!(request.headers.accept ?? "").includes("text/event-stream")) {
    throw new GatewayError(
      "NOT_ACCEPTABLE",
      "Not Acceptable: a GET opens the session's event stream, so it must accept text/event-stream.",
    );
  }
  checkProtocolVersion(request);
}

/** An `MCP-Protocol-Version` header names a revision this endpoint speaks (no header: the client predates it). */
export function checkProtocolVersion(request: IncomingMessage): void {
  const version = header(request, "mcp-protocol-version");
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new GatewayError(
      "PROTOCOL_VERSION_UNSUPPORTED",
      `Bad Request: unsupported protocol version ${JSON.stringify(version)} in MCP-Protocol-Version (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}).`,
    );
  }
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
