import type {
  MCPEngineConnectRequest,
  MCPEngineRequestOptions,
  MCPImplementation,
  MCPServerCapabilities,
} from "@mcp-tool-adapter/core";
import { checkInitializeResult, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "./initialize-result.js";
import type { JsonRpcSession } from "./json-rpc-session.js";

/** What the handshake learned; all undefined when the transport resumed an existing session. */
export interface InitializeOutcome {
  readonly protocolVersion: string | undefined;
  readonly capabilities: MCPServerCapabilities | undefined;
  readonly serverInfo: MCPImplementation | undefined;
  readonly instructions: string | undefined;
}

const RESUMED: InitializeOutcome = {
  protocolVersion: undefined,
  capabilities: undefined,
  serverInfo: undefined,
  instructions: undefined,
};

/**
 * Starts the session and runs the 2025-era handshake as SDK 1.x's Client does: `initialize`
 * offering SDK 1.x's latest revision, a check that the server's answer is one SDK 1.x supports,
 * the revision handed to the transport, then `notifications/initialized`. A transport that
 * already has a session id is resumed without a handshake. A failed handshake closes the session.
 */
export async function initialize(
  session: JsonRpcSession,
  request: Pick<MCPEngineConnectRequest, "clientInfo" | "capabilities">,
  options: MCPEngineRequestOptions,
): Promise<InitializeOutcome> {
  await session.start();
  const { transport } = session;
  if (transport.sessionId !== undefined) return RESUMED;
  try {
    const answer = await session.request(
      {
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: request.capabilities,
          clientInfo: request.clientInfo,
        },
      },
      options,
    );
    const result = checkInitializeResult(answer);
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      throw new Error(`Server's protocol version is not supported: ${result.protocolVersion}`);
    }
    transport.setProtocolVersion?.(result.protocolVersion);
    await session.notify({ method: "notifications/initialized" });
    return {
      protocolVersion: result.protocolVersion,
      capabilities: result.capabilities,
      serverInfo: result.serverInfo,
      instructions: result.instructions,
    };
  } catch (error) {
    void session.close().catch(() => undefined);
    throw error;
  }
}
