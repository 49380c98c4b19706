import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
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
