import { untilAborted } from "@mcp-tool-adapter/core";
import { endTransportSession } from "@mcp-tool-adapter/core/protocol";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  MCPEngine,
  MCPEngineConnection,
  MCPEngineConnectRequest,
  MCPEngineMessage,
  MCPImplementation,
  MCPProtocolSetting,
  MCPServerCapabilities,
} from "@mcp-tool-adapter/core";
import { clampTimer } from "../timeouts.js";
import type { TransportFactory } from "../config.js";
import { connectOverTransport } from "./connect-over-transport.js";
import { initialize, type InitializeOutcome } from "./initialize.js";
import { JsonRpcSession } from "./json-rpc-session.js";

export interface JsonRpcEngineOptions {
  /** The transport of each connection: one given by the host, or a factory called per connect. */
  readonly transport: Transport | TransportFactory | undefined;
  readonly closeTimeoutMs: number;
}

/**
 * The default engine: the 2025-era protocol (revisions up to SDK 1.x's latest, with its types and
 * constants) spoken by the adapter's own lean JSON-RPC session over an SDK 1.x-shaped transport.
 * It behaves as the SDK 1.x Client engine does, without a Zod parse of every message.
 */
export class JsonRpcEngine implements MCPEngine {
  readonly name = "@mcp-tool-adapter/adapter JSON-RPC (the default engine)";
  readonly protocols: readonly MCPProtocolSetting[] = Object.freeze(["auto", "2025"]);
  readonly #options: JsonRpcEngineOptions;

  constructor(options: JsonRpcEngineOptions) {
    this.#options = options;
  }

  connect(request: MCPEngineConnectRequest): Promise<MCPEngineConnection> {
    return connectOverTransport(
      this.#options.transport,
      request,
      this.#options.closeTimeoutMs,
      async (transport, noteError) => {
        const { signal } = request;
        let connected = false;
        const session = new JsonRpcSession(transport, {
          listeners: request.listeners,
          requestHandlers: request.requestHandlers,
          capabilities: request.capabilities,
          onError: (error) => {
            if (!connected) noteError(error);
          },
        });
        // The initialize timeout is only a backstop: the host's deadline fires first and aborts it.
        // The race covers a transport whose start hangs.
        const outcome = await untilAborted(
          initialize(session, request, { timeout: clampTimer(request.timeoutMs + 1_000), signal }),
          signal,
          () => undefined,
        );
        connected = true;
        return new JsonRpcConnection(session, outcome);
      },
    );
  }
}

class JsonRpcConnection implements MCPEngineConnection {
  readonly era = "2025" as const;
  readonly protocolVersion: string | undefined;
  readonly serverCapabilities: MCPServerCapabilities | undefined;
  readonly serverInfo: MCPImplementation | undefined;
  readonly instructions: string | undefined;
  readonly #session: JsonRpcSession;

  constructor(session: JsonRpcSession, outcome: InitializeOutcome) {
    this.#session = session;
    this.request = session.request.bind(session);
    this.protocolVersion = outcome.protocolVersion;
    this.serverCapabilities = outcome.capabilities;
    this.serverInfo = outcome.serverInfo;
    this.instructions = outcome.instructions;
  }

  get sessionId(): string | undefined {
    return this.#session.transport.sessionId;
  }

  /** The session's own method, bound: every call of the adapter goes through it, so no delegating frame. */
  readonly request: MCPEngineConnection["request"];

  notify(notification: MCPEngineMessage): Promise<void> {
    return this.#session.notify(notification);
  }

  abandonRequests(error: Error): void {
    this.#session.abandonRequests(error);
  }

  /** The DELETE that ends a streamable HTTP session, when the transport has a session to end. */
  endSession(): Promise<void> {
    return endTransportSession(this.#session.transport);
  }

  close(): Promise<void> {
    return this.#session.close();
  }
}
