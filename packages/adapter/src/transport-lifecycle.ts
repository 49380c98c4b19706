import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MCPEngineConnection } from "@mcp-tool-adapter/core";
import { Deadline } from "./deadline.js";
import { withTimeout } from "./timeouts.js";
import { closeReasonOf, isConnectionClosed, isConnectionGone } from "./transport-failure.js";

/** Fails with a TypeError when a transport factory returned something that is not a Transport. */
export function assertTransport(value: unknown): asserts value is Transport {
  const candidate = value as Partial<Transport> | null | undefined;
  if (
    typeof candidate?.start !== "function" ||
    typeof candidate.send !== "function" ||
    typeof candidate.close !== "function"
  ) {
    throw new TypeError("the transport factory did not return a Transport (an object with start, send and close)");
  }
}

/** Closes `transport` (or an engine's connection) within `timeoutMs`, ignoring any failure. */
export async function closeQuietly(transport: Pick<Transport, "close">, timeoutMs: number): Promise<void> {
  try {
    await withTimeout(transport.close(), timeoutMs, "transport close");
  } catch {
    // Best effort: the caller already reports the failure that led here.
  }
}

/**
 * A close on purpose (disconnect, reconnect): the engine ends the server's session first (an HTTP
 * DELETE on a 2025-era streamable HTTP connection, so the server does not keep it until its own
 * timeout), then the connection closes. Both share the one `timeoutMs` the host gave the close
 * (adapter option `closeTimeoutMs`): the DELETE is a courtesy to the server, so a dead, refusing
 * or hanging server costs the close no more time than a close alone may take, and its failure is
 * ignored; the close then aborts a DELETE still under way. Rejects only as the close itself
 * would: when it fails or outlasts what is left of `timeoutMs`.
 */
export async function closeOnPurpose(
  connection: Pick<MCPEngineConnection, "close" | "endSession">,
  timeoutMs: number,
): Promise<void> {
  const deadline = new Deadline(timeoutMs);
  try {
    if (connection.endSession !== undefined) {
      const ending = Promise.resolve()
        .then(() => connection.endSession?.())
        .catch(() => undefined);
      await deadline.race(ending).catch(() => undefined);
    }
    await withTimeout(connection.close(), deadline.remaining(), "transport close");
  } finally {
    deadline.clear();
  }
}

/**
 * What made a handshake fail. The SDK reports a transport that closed as "Connection closed"
 * (and a send to a dead server as a write failure); the transport's own account says more (a
 * server's exit code and stderr), so it wins: its `closeReason` when it has one, else the last
 * error it reported.
 */
export function connectFailureCause(
  error: unknown,
  transport: Transport | undefined,
  handshakeError: Error | undefined,
): unknown {
  if (!isConnectionClosed(error) && !isConnectionGone(error)) return error;
  return closeReasonOf(transport) ?? (isConnectionClosed(error) ? handshakeError : undefined) ?? error;
}
