import type {
  MCPEngineConnection,
  MCPEngineConnectRequest,
  MCPEngineMessage,
  MCPEngineRequestOptions,
  MCPImplementation,
  MCPProtocolEra,
  MCPServerCapabilities,
} from "@mcp-tool-adapter/core";
import type { Client, RequestMethod, Tool, Transport } from "@modelcontextprotocol/client";
import { toSeamError } from "./errors.js";

/** The notifications the adapter follows; on 2026 they arrive on a `subscriptions/listen` stream (not opened yet). */
const NOTIFICATIONS = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
  "notifications/prompts/list_changed",
  "notifications/message",
] as const;

/** The server-to-client requests the adapter can answer. */
const REQUESTS = ["elicitation/create", "sampling/createMessage", "roots/list"] as const;

type Params = Record<string, unknown> | undefined;

/** One connection of the 2026 engine: an SDK v2 Client on its transport, in the seam's plain terms. */
export class Engine2026Connection implements MCPEngineConnection {
  readonly #client: Client;
  readonly #transport: Transport;
  /** The tools of the last tools/list, by name: what tools/call mirrors `x-mcp-header` arguments from. */
  #tools = new Map<string, Tool>();
  #closed = false;

  constructor(client: Client, transport: Transport, request: MCPEngineConnectRequest) {
    this.#client = client;
    this.#transport = transport;
    const { listeners, requestHandlers } = request;
    client.onclose = () => {
      this.#closed = true;
      listeners.closed();
    };
    client.onerror = (error) => {
      listeners.error(error);
    };
    for (const method of NOTIFICATIONS) {
      client.setNotificationHandler(method, (notification: { method: string; params?: Params }) => {
        listeners.notification(
          notification.params === undefined
            ? { method: notification.method }
            : { method: notification.method, params: notification.params },
        );
      });
    }
    for (const method of REQUESTS) {
      const handler = requestHandlers[method];
      if (handler === undefined) continue;
      client.setRequestHandler(
        method,
        async (sent: { params?: Params }, context: { mcpReq: { signal: AbortSignal } }) =>
          (await handler(sent.params ?? {}, { signal: context.mcpReq.signal })) as never,
      );
    }
  }

  get era(): MCPProtocolEra {
    return this.#client.getProtocolEra() === "modern" ? "2026-07-28" : "2025";
  }

  get protocolVersion(): string | undefined {
    return this.#client.getNegotiatedProtocolVersion();
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
    return (this.#transport as { sessionId?: string }).sessionId;
  }

  async request(request: MCPEngineMessage, options: MCPEngineRequestOptions = {}): Promise<unknown> {
    try {
      switch (request.method) {
        case "tools/list":
          return await this.#listTools(request.params, options);
        case "tools/call":
          return await this.#callTool(request.params ?? {}, options);
        default:
          return await this.#client.request(request as { method: RequestMethod; params?: Params }, options);
      }
    } catch (error) {
      throw toSeamError(error);
    }
  }

  /**
   * tools/list through the SDK's cached listing: without a cursor it walks every page, and a list
   * whose `ttlMs` has not run out is served from the SDK's cache without a round trip.
   */
  async #listTools(params: Params, options: MCPEngineRequestOptions): Promise<unknown> {
    const result = await this.#client.listTools(params, options);
    if (params?.cursor === undefined) this.#tools = new Map(result.tools.map((tool) => [tool.name, tool]));
    return result;
  }

  /**
   * tools/call with the listed definition, so the SDK mirrors `x-mcp-header` arguments into
   * headers; without its output schema, because the adapter checks structured output itself
   * (with its own validator and error kind).
   */
  #callTool(params: Record<string, unknown>, options: MCPEngineRequestOptions): Promise<unknown> {
    const listed = this.#tools.get(params.name as string);
    const toolDefinition = listed === undefined ? undefined : { ...listed, outputSchema: undefined };
    return this.#client.callTool(
      params as Parameters<Client["callTool"]>[0],
      toolDefinition === undefined ? options : { ...options, toolDefinition },
    );
  }

  async notify(notification: MCPEngineMessage): Promise<void> {
    try {
      await this.#client.notification(notification);
    } catch (error) {
      throw toSeamError(error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) {
      await this.#transport.close();
      return;
    }
    this.#closed = true;
    await this.#client.close();
  }
}
