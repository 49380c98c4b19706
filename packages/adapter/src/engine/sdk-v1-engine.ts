import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  type MCPEngine,
  type MCPEngineConnection,
  type MCPEngineConnectRequest,
  type MCPEngineMessage,
  type MCPEngineRequestOptions,
  type MCPImplementation,
  MCPProtocolError,
  type MCPProtocolSetting,
  type MCPServerCapabilities,
  untilAborted,
} from "@mcp-tool-adapter/core";
import {
  endTransportSession,
  isAnsweredRequest,
  MCP_FOLLOWED_NOTIFICATIONS,
  RelatedRequestTags,
} from "@mcp-tool-adapter/core/protocol";
import type { createSdkJsonSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { LegacyResultTransport } from "../legacy-result-transport.js";
import { clampTimer } from "../timeouts.js";
import type { TransportFactory } from "../config.js";
import { connectOverTransport } from "./connect-over-transport.js";
import type * as SdkSchemas from "./sdk-schemas.js";

/**
 * Accepts any JSON-RPC result as is. The SDK's CallToolResultSchema rejects a bare content list
 * (MCP 1.4.0 servers) and costs a Zod parse per call; the adapter checks result shapes itself.
 * The SDK only calls `safeParse` on the schema it is given.
 */
const ANY_RESULT = { safeParse: (data: unknown) => ({ success: true, data }) } as unknown as Parameters<
  Client["request"]
>[1];

export interface SdkV1EngineOptions {
  /** The transport of each connection: one given by the host, or a factory called per connect. */
  readonly transport: Transport | TransportFactory | undefined;
  /** The JSON Schema validator the SDK checks structured tool output with. */
  readonly jsonSchemaValidator: ReturnType<typeof createSdkJsonSchemaValidator>;
  readonly closeTimeoutMs: number;
}

/**
 * `engine: "sdk-v1"`: protocol revisions up to 2025-11-25 through `@modelcontextprotocol/sdk` 1.x's
 * Client, over the transport the host gives (an SDK 1.x Transport, or a factory of them).
 */
export class SdkV1Engine implements MCPEngine {
  readonly name = '@modelcontextprotocol/sdk 1.x Client (engine: "sdk-v1")';
  readonly protocols: readonly MCPProtocolSetting[] = Object.freeze(["auto", "2025"]);
  readonly #options: SdkV1EngineOptions;

  constructor(options: SdkV1EngineOptions) {
    this.#options = options;
  }

  connect(request: MCPEngineConnectRequest): Promise<MCPEngineConnection> {
    return connectOverTransport(
      this.#options.transport,
      request,
      this.#options.closeTimeoutMs,
      async (transport, noteError) => {
        const { signal } = request;
        const sdk = await loadSdk();
        const client = new sdk.Client(request.clientInfo, {
          capabilities: request.capabilities,
          jsonSchemaValidator: this.#options.jsonSchemaValidator,
        });
        let connected = false;
        const links = new RelatedRequestTags();
        install(sdk, client, request, {
          links,
          onError: (error) => {
            if (!connected) noteError(error);
          },
        });
        // The SDK's own initialize timeout is only a backstop: the host's deadline fires first and
        // aborts it. The race covers a transport whose start hangs, which the SDK does not watch.
        const wrapped = new LegacyResultTransport(transport, links);
        await untilAborted(
          client.connect(wrapped, { timeout: clampTimer(request.timeoutMs + 1_000), signal }),
          signal,
          () => undefined,
        );
        connected = true;
        return new SdkV1Connection(client, transport, wrapped, links);
      },
    );
  }
}

interface Sdk {
  readonly Client: typeof Client;
  readonly McpError: typeof McpError;
  readonly schemas: typeof SdkSchemas;
}

/**
 * SDK 1.x's Client, its McpError and its schemas, loaded at this engine's first connect: the
 * default engine does not use them, so importing the adapter does not load them (nor the
 * validator, protocol code and Zod schemas they bring).
 */
async function loadSdk(): Promise<Sdk> {
  const [client, types, schemas] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("./sdk-schemas.js"),
  ]);
  return { Client: client.Client, McpError: types.McpError, schemas };
}

/**
 * Routes the SDK client's notifications, requests, errors and close to the host's listeners. A
 * server's request reaches its handler with the tag of the request it belongs to (`relatedTag`),
 * when the transport linked them: SDK 1.x hands a handler only the server request's own id
 * (`extra.requestId`), so `links` finds the tag by that id.
 */
function install(
  sdk: Sdk,
  client: Client,
  request: MCPEngineConnectRequest,
  { links, onError }: { links: RelatedRequestTags; onError: (error: Error) => void },
): void {
  const { McpError: SdkMcpError } = sdk;
  const { NOTIFICATION_SCHEMAS, REQUEST_SCHEMAS } = sdk.schemas;
  const { listeners, requestHandlers } = request;
  client.onclose = () => {
    links.clear();
    listeners.closed();
  };
  client.onerror = (error) => {
    onError(error);
    listeners.error(error);
  };
  // Core's list of followed notifications; the SDK validates each against its schema first.
  for (const method of MCP_FOLLOWED_NOTIFICATIONS) {
    client.setNotificationHandler(NOTIFICATION_SCHEMAS[method], (notification: MCPEngineMessage) => {
      listeners.notification(notification);
    });
  }
  for (const [method, handler] of Object.entries(requestHandlers)) {
    if (!isAnsweredRequest(method)) continue;
    client.setRequestHandler(
      REQUEST_SCHEMAS[method],
      async (
        sent: { params?: Record<string, unknown> },
        extra: { signal: AbortSignal; requestId: string | number },
      ) => {
        const relatedTag = links.tagOf(extra.requestId);
        const context = relatedTag === undefined ? { signal: extra.signal } : { signal: extra.signal, relatedTag };
        try {
          return (await handler(sent.params ?? {}, context)) as never;
        } catch (error) {
          throw MCPProtocolError.isInstance(error) ? new SdkMcpError(error.rpcCode, error.message, error.data) : error;
        }
      },
    );
  }
}

class SdkV1Connection implements MCPEngineConnection {
  readonly era = "2025" as const;
  readonly #client: Client;
  readonly #transport: Transport;
  readonly #wrapped: LegacyResultTransport;
  readonly #links: RelatedRequestTags;

  constructor(client: Client, transport: Transport, wrapped: LegacyResultTransport, links: RelatedRequestTags) {
    this.#client = client;
    this.#transport = transport;
    this.#wrapped = wrapped;
    this.#links = links;
  }

  get protocolVersion(): string | undefined {
    return this.#wrapped.protocolVersion;
  }

  get serverCapabilities(): MCPServerCapabilities | undefined {
    return this.#client.getServerCapabilities();
  }

  get serverInfo(): MCPImplementation | undefined {
    return this.#client.getServerVersion();
  }

  get instructions(): string | undefined {
    return this.#client.getInstructions();
  }

  get sessionId(): string | undefined {
    return this.#transport.sessionId;
  }

  /** The SDK's `request()` hands the request to the transport before it returns, so `links` learns its id. */
  request(request: MCPEngineMessage, options?: MCPEngineRequestOptions): Promise<unknown> {
    return this.#links.sending(options?.tag, () => this.#client.request(request, ANY_RESULT, options));
  }

  notify(notification: MCPEngineMessage): Promise<void> {
    return this.#client.notification(notification);
  }

  /** The DELETE that ends a streamable HTTP session, when the transport has a session to end. */
  endSession(): Promise<void> {
    return endTransportSession(this.#transport);
  }

  /**
   * Closes through the client while it still holds the transport; once the transport reported its
   * close, the client has let go of it, so it is closed directly (a half-dead process or socket is
   * reaped).
   */
  close(): Promise<void> {
    return this.#client.transport === undefined ? this.#transport.close() : this.#client.close();
  }
}
