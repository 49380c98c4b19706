import { randomUUID } from "node:crypto";
import type {
  Logger,
  MCPResourceSubscription,
  MCPServerLogEntry,
  MCPToolResult,
  SamplingHandler,
} from "mcp-tool-adapter";
import { describeCause } from "@mcp-tool-adapter/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type Implementation,
} from "@modelcontextprotocol/sdk/types.js";
import type { TracerProvider } from "@opentelemetry/api";
import { approveCall, type GatewayApproval } from "./approval.js";
import { inRequestSpan } from "./request-span.js";
import type { Catalog } from "./catalog.js";
import { WITHHELD_META_KEY } from "./catalog.js";
import type { ClientRouter } from "./client-router.js";

type SamplingRequest = Parameters<SamplingHandler>[0];
type SamplingResponse = Awaited<ReturnType<SamplingHandler>>;
import type { MCPRoot } from "@mcp-tool-adapter/adapter";

/** What every downstream session shares: the gateway's catalog, policy and bookkeeping. */
export interface SessionContext {
  readonly catalog: Catalog;
  readonly router: ClientRouter<DownstreamSession>;
  readonly serverInfo: Implementation;
  readonly approval: GatewayApproval | undefined;
  readonly logger: Logger | undefined;
  /** Where the gateway's SERVER spans go; default the globally registered provider. */
  readonly tracerProvider: TracerProvider | undefined;
  /** A client's roots changed (it answered roots/list, or it left): the upstreams' roots are worked out again. */
  readonly onRootsChanged: () => void;
}

// The low-level Server, not McpServer: the gateway forwards tools and prompts whose JSON Schemas come from
// upstream servers as they are, and McpServer wants zod schemas it defines itself.
/** One downstream client: an SDK `Server` answering it from the catalog, connected to its own transport. */
export class DownstreamSession {
  readonly id = randomUUID();
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above: the low-level server on purpose
  readonly server: Server;
  readonly #context: SessionContext;
  #rootsAsked = false;
  #roots: readonly MCPRoot[] | undefined;
  /** This client's resource subscriptions, by URI: each holds one listener on the owning upstream. */
  readonly #subscriptions = new Map<string, MCPResourceSubscription>();

  constructor(context: SessionContext) {
    this.#context = context;
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
    this.server = new Server(context.serverInfo, {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        completions: {},
        logging: {},
      },
    });
    this.#handle();
    this.server.setNotificationHandler(RootsListChangedNotificationSchema, () => this.#askRoots());
  }

  async connect(transport: Transport): Promise<void> {
    this.#context.router.add(this);
    const previous = this.server.onclose;
    this.server.onclose = () => {
      this.#leave();
      previous?.();
    };
    await this.server.connect(transport);
  }

  close(): Promise<void> {
    this.#leave();
    return this.server.close();
  }

  /** The folders this client shared (roots/list), or undefined when it shared none. */
  get roots(): readonly MCPRoot[] | undefined {
    return this.#roots;
  }

  #leave(): void {
    if (!this.#context.router.sessions.has(this)) return;
    this.#context.router.remove(this);
    for (const subscription of this.#subscriptions.values()) void subscription.unsubscribe().catch(() => undefined);
    this.#subscriptions.clear();
    if (this.#roots !== undefined) this.#context.onRootsChanged();
  }

  #setRoots(roots: readonly MCPRoot[]): void {
    this.#roots = roots;
    if (this.#context.router.sessions.has(this)) this.#context.onRootsChanged();
  }

  declares(capability: keyof ClientCapabilities): boolean {
    return this.server.getClientCapabilities()?.[capability] !== undefined;
  }

  async elicit(request: ElicitRequestFormParams | ElicitRequestURLParams, signal: AbortSignal): Promise<ElicitResult> {
    return this.server.elicitInput(request, { signal });
  }

  /**
   * An upstream's sampling request, asked of this client. core's sampling types and the SDK's
   * describe the same wire shape (core's content blocks are open records), so the request goes
   * across as is and the SDK checks the client's answer against its own schema.
   */
  async sample(request: SamplingRequest, signal: AbortSignal): Promise<SamplingResponse> {
    const result: CreateMessageResult = await this.server.createMessage(request as CreateMessageRequestParams, {
      signal,
    });
    return result as SamplingResponse;
  }

  /** An upstream's log message, as this client's own `notifications/message` (the SDK drops it below the client's level). */
  forwardLog(entry: MCPServerLogEntry): void {
    const logger = entry.logger === undefined ? entry.serverName : `${entry.serverName}/${entry.logger}`;
    this.server.sendLoggingMessage({ level: entry.level, logger, data: entry.data }).catch(() => undefined);
  }

  #handle(): void {
    const { catalog } = this.#context;
    this.server.setRequestHandler(ListToolsRequestSchema, (_request, extra) => {
      this.#askRootsOnce(extra.sendRequest);
      const withheld = catalog.withheld();
      return {
        tools: catalog.listTools().map((tool) => tool.wire),
        ...(withheld.length === 0 ? {} : { _meta: { [WITHHELD_META_KEY]: withheld } }),
      };
    });
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      this.#askRootsOnce(extra.sendRequest);
      const { params } = request;
      return inRequestSpan(
        { method: "tools/call", target: params.name, meta: params._meta },
        this.#context.tracerProvider,
        () => this.#callTool(params, { signal: extra.signal, sendProgress: extra.sendNotification }),
      );
    });
    this.server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await catalog.listPrompts() }));
    this.server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const prompt = await catalog.findPrompt(request.params.name);
      const adapter = prompt === undefined ? undefined : catalog.adapter(prompt.server);
      if (prompt === undefined || adapter?.getPrompt === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown prompt "${request.params.name}": list the prompts (prompts/list) for the names this gateway serves.`,
        );
      return unwrap(
        await adapter.getPrompt(prompt.upstreamName, request.params.arguments ?? {}, { signal: extra.signal }),
        `prompt "${request.params.name}"`,
      );
    });
    this.server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: await catalog.listResources(),
    }));
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: await catalog.listResourceTemplates(),
    }));
    this.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const { uri } = request.params;
      const owner = await catalog.resourceOwner(uri);
      const adapter = owner === undefined ? undefined : catalog.adapter(owner);
      if (adapter?.readResource === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown resource "${uri}": no upstream server lists it or a template that matches it.`,
        );
      return unwrap(await adapter.readResource(uri, { signal: extra.signal }), `resource "${uri}"`);
    });
    this.server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
      const { uri } = request.params;
      if (this.#subscriptions.has(uri)) return {};
      const owner = await catalog.resourceOwner(uri);
      const adapter = owner === undefined ? undefined : catalog.adapter(owner);
      if (adapter?.subscribeResource === undefined)
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown resource "${uri}": no upstream server lists it or a template that matches it.`,
        );
      const subscription = unwrap(
        await adapter.subscribeResource(
          uri,
          () => {
            this.server.sendResourceUpdated({ uri }).catch(() => undefined);
          },
          { signal: extra.signal },
        ),
        `subscribing to resource "${uri}"`,
      );
      // A second subscribe of the same URI while the first was on its way: keep one listener.
      if (this.#subscriptions.has(uri)) void subscription.unsubscribe().catch(() => undefined);
      else this.#subscriptions.set(uri, subscription);
      return {};
    });
    this.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
      const subscription = this.#subscriptions.get(request.params.uri);
      this.#subscriptions.delete(request.params.uri);
      const result = await subscription?.unsubscribe();
      if (result !== undefined && !result.success) unwrap(result, `unsubscribing from "${request.params.uri}"`);
      return {};
    });
    this.server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
      const { ref, argument } = request.params;
      let server: string | undefined;
      let reference: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string } | undefined;
      if (ref.type === "ref/prompt") {
        const prompt = await catalog.findPrompt(ref.name);
        server = prompt?.server;
        if (prompt !== undefined) reference = { type: "ref/prompt", name: prompt.upstreamName };
      } else {
        server = await catalog.resourceOwner(ref.uri);
        reference = { type: "ref/resource", uri: ref.uri };
      }
      const adapter = server === undefined ? undefined : catalog.adapter(server);
      if (adapter?.complete === undefined || reference === undefined) return { completion: { values: [] } };
      const completion = unwrap(await adapter.complete(reference, argument, { signal: extra.signal }), "completion");
      return { completion };
    });
  }

  async #callTool(
    params: {
      name: string;
      arguments?: Record<string, unknown> | undefined;
      _meta?: { progressToken?: string | number } | undefined;
    },
    call: {
      signal: AbortSignal;
      sendProgress: (notification: {
        method: "notifications/progress";
        params: { progressToken: string | number; progress: number; total?: number; message?: string };
      }) => Promise<void>;
    },
  ): Promise<CallToolResult> {
    const { catalog, router, approval } = this.#context;
    const tool = catalog.findTool(params.name);
    if (tool === undefined)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${params.name}": list the tools (tools/list) for the names this gateway serves.`,
      );
    const adapter = catalog.adapter(tool.server);
    if (adapter === undefined)
      return failure(`MCP server "${tool.server}" behind the gateway is not connected; try again when it is back.`);
    const args = params.arguments ?? {};
    const refusal = await approveCall({ approval, tool, args, session: this, signal: call.signal });
    if (refusal !== undefined) return failure(refusal);
    const progressToken = params._meta?.progressToken;
    const done = router.beginCall(tool.server, this);
    let result: MCPToolResult;
    try {
      result = await adapter.invoke(tool.upstreamName, args, {
        signal: call.signal,
        ...(progressToken === undefined
          ? {}
          : {
              onProgress: (progress) => {
                call
                  .sendProgress({ method: "notifications/progress", params: { progressToken, ...progress } })
                  .catch(() => undefined);
              },
            }),
      });
    } finally {
      done();
    }
    if (result.data !== null)
      return { ...result.data, isError: result.data.isError === true || !result.success } as CallToolResult;
    return failure(
      `${tool.server}/${tool.upstreamName} failed (${result.errorKind ?? "error"}): ${result.error ?? "no detail"}`,
    );
  }

  /**
   * The client's roots, asked for at its first tools request rather than at `initialized`: over
   * streamable HTTP a request the server starts on its own needs the client's GET stream, which
   * may not be open yet then, while a request tied to one of the client's goes out on its response.
   * Not awaited: the answer comes back on its own, and the client's request is not held up.
   */
  #askRootsOnce(sendRequest: RelatedRequestSender): void {
    if (this.#rootsAsked || !this.declares("roots")) return;
    this.#rootsAsked = true;
    sendRequest({ method: "roots/list" }, ListRootsResultSchema).then(
      ({ roots }) => {
        this.#setRoots(roots);
      },
      (error: unknown) => {
        this.#context.logger?.warn?.(
          `gateway: asking the downstream client for its roots failed: ${describeCause(error)}`,
        );
      },
    );
  }

  async #askRoots(): Promise<void> {
    if (!this.declares("roots")) return;
    try {
      const { roots } = await this.server.listRoots();
      this.#setRoots(roots);
    } catch (error) {
      this.#context.logger?.warn?.(
        `gateway: asking the downstream client for its roots failed: ${describeCause(error)}`,
      );
    }
  }
}

type RelatedRequestSender = (
  request: { method: "roots/list" },
  schema: typeof ListRootsResultSchema,
) => Promise<{ roots: MCPRoot[] }>;

function failure(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** An adapter request's data, or the JSON-RPC error a downstream client expects for its failure. */
function unwrap<T>(
  result: { success: boolean; data: T | null; error: string | null; errorKind?: string | undefined },
  what: string,
): T {
  if (result.success && result.data !== null) return result.data;
  const code =
    result.errorKind === "not_found" || result.errorKind === "validation"
      ? ErrorCode.InvalidParams
      : ErrorCode.InternalError;
  throw new McpError(code, `${what}: ${result.error ?? "failed"} (${result.errorKind ?? "error"})`);
}
