import type { ToolCapability } from "@mcp-tool-adapter/capability-inference";
import { ConnectionLost } from "../session.js";
import { isConnectionGone } from "../transport-failure.js";

/** A transport or engine connection: whether it has an HTTP session. */
interface SessionIdHolder {
  readonly sessionId?: string | undefined;
}

/**
 * Whether a tool may be sent again after a failure cut its call off: only when its capability
 * (the user's overrides, then annotations, then name; see toolCapability) says it is read-only
 * or idempotent. Everything else, and a tool never found, might do its work twice.
 */
export function isSafeToRepeat(capability: Pick<ToolCapability, "readOnly" | "idempotent"> | undefined): boolean {
  return capability !== undefined && (capability.readOnly || capability.idempotent === true);
}

/**
 * Whether a request that failed never reached the server, so sending it again cannot repeat
 * anything: the session was closed before it was sent, the send itself failed because the
 * connection was gone, or the server refused it for an unknown session (HTTP 404).
 */
export function neverReachedServer(error: unknown, transport: SessionIdHolder): boolean {
  if (error instanceof ConnectionLost) return error.beforeSend;
  return isConnectionGone(error) || isSessionExpired(error, transport);
}

/**
 * A streamable HTTP server answered 404 to a request that carried a session id: the session is
 * gone (expired, or the server restarted) and the spec says to initialize a new one. Read
 * structurally: the HTTP transport's NOT_FOUND error with status 404, on a transport with a session.
 */
export function isSessionExpired(error: unknown, transport: SessionIdHolder): boolean {
  const { code, status } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    status?: unknown;
  };
  return code === "NOT_FOUND" && status === 404 && typeof transport.sessionId === "string";
}
