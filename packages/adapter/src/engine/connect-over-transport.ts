import { untilAborted } from "@mcp-tool-adapter/core";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { MCPEngineConnectRequest } from "@mcp-tool-adapter/core";
import type { MCPServerConfig } from "../config.js";
import { assertTransport, closeQuietly, connectFailureCause } from "../transport-lifecycle.js";
import type { TransportFactory } from "../config.js";

/**
 * What both built-in engines do around their handshake: take the host's transport (or make this
 * server's with the host's factory), run `handshake` over it, and when anything fails close the
 * transport and explain the failure by what the transport saw (its close reason says more than
 * "Connection closed"). `noteError` keeps the last protocol error the handshake heard for that.
 */
export async function connectOverTransport<Connection>(
  source: Transport | TransportFactory | undefined,
  request: MCPEngineConnectRequest,
  closeTimeoutMs: number,
  handshake: (transport: Transport, noteError: (error: Error) => void) => Promise<Connection>,
): Promise<Connection> {
  // The adapter checks this before it connects, with a message saying what to pass.
  if (source === undefined) throw new Error("no transport was given to the adapter");
  const { signal } = request;
  let transport: Transport | undefined;
  let handshakeError: Error | undefined;
  try {
    transport = await untilAborted<Transport>(
      Promise.resolve().then(() =>
        typeof source === "function" ? source(request.server as unknown as MCPServerConfig) : source,
      ),
      signal,
      (late) => void closeQuietly(late, closeTimeoutMs),
    );
    assertTransport(transport);
    return await handshake(transport, (error) => {
      handshakeError = error;
    });
  } catch (error) {
    // Closing first also lets a transport finish recording why it closed (closeReason).
    if (transport !== undefined) await closeQuietly(transport, closeTimeoutMs);
    throw signal.aborted ? error : connectFailureCause(error, transport, handshakeError);
  }
}
