import { randomUUID } from "node:crypto";
import type {
  Logger,
  MCPResourceSubscription,
  MCPServerLogEntry,
  SamplingHandler,
  ServerSetAdapter,
} from "mcp-tool-adapter";
import { ATTR_ERROR_TYPE, ATTR_MCP_PROTOCOL_VERSION, describeCause } from "@mcp-tool-adapter/core";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListRootsResultSchema,
  ListToolsRequestSchema,
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
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import type { Attributes, MeterProvider, TracerProvider } from "@opentelemetry/api";
import { meteringOn, recordSince, serverHistograms } from "./request-metrics.js";
import { SessionEnding } from "./session-end.js";
import { approveCall, knownNotToNeedApproval, type GatewayApproval } from "./approval.js";
import { inRequestSpan, transportAttributes, type SpanConnection, type SpannedRequest } from "./request-span.js";
import { LEGACY_SDK_ANSWERED, spanSdkAnsweredRequests } from "./sdk-answered-spans.js";
import { answerToolCallsFirst, type ToolCallParams } from "./tool-call-fast-path.js";
import type { Catalog, CatalogTool } from "./catalog.js";
import {
  complete,
  failure,
  findCallTarget,
  forwardCall,
  getPrompt,
  listToolsResult,
  readResource,
  resourceUpstream,
  unwrap,
} from "./gateway-requests.js";
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
  /** Where the gateway's request and session durations go; default the globally registered provider. */
  readonly meterProvider: MeterProvider | undefined;
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
  /** What this session's request spans say of it; known once connected. */
  #spans: SpanConnection;
  /** How the session ended, for its duration's `error.type`; only followed when something records it. */
  #ending: SessionEnding | undefined;

  constructor(context: SessionContext) {
    this.#context = context;
    this.#spans = {
      tracerProvider: context.tracerProvider,
      meterProvider: context.meterProvider,
      networkTransport: "pipe",
    };
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

  /**
   * `wire`: where the client's end of the session is noted (see session-end.ts): the transport
   * itself, or the stream under it when `transport` is a channel over that stream (stdio).
   */
  async connect(transport: Transport, wire: object = transport): Promise<void> {
    this.#context.router.add(this);
    const previous = this.server.onclose;
    const openedAt = performance.now();
    const ending = meteringOn(this.#context.meterProvider) ? new SessionEnding(wire) : undefined;
    this.#ending = ending;
    this.server.onclose = () => {
      this.#leave();
      this.#recordSessionDuration(openedAt);
      previous?.();
    };
    // A 2025-era transport with a session id is streamable HTTP; stdio has none.
    this.#spans = {
      tracerProvider: this.#context.tracerProvider,
      meterProvider: this.#context.meterProvider,
      networkTransport: transport.sessionId === undefined ? "pipe" : "tcp",
      sessionId: transport.sessionId,
    };
    await this.server.connect(transport);
    spanSdkAnsweredRequests(transport, this.#spans, LEGACY_SDK_ANSWERED);
    // The fast path's call is passed on as it is (its id names the request a roots/list asked
    // during it belongs to): nothing made per call on the way upstream.
    answerToolCallsFirst(transport, (call) => this.#answerToolCall(call, call, call.id));
    // Last: it sees every message the others pass on, and the fast path's answers.
    ending?.watch(transport);
  }

  /** The gateway ends the session (it closes, or a program closed the connection). */
  close(): Promise<void> {
    this.#ending?.closingByServer();
    this.#leave();
    return this.server.close();
  }

  /** The folders this client shared (roots/list), or undefined when it shared none. */
  get roots(): readonly MCPRoot[] | undefined {
    return this.#roots;
  }

  /** `mcp.server.session.duration`: from connecting until the session closed, with what its spans say of it. */
  #recordSessionDuration(openedAt: number): void {
    const histogram = serverHistograms(this.#spans.meterProvider)?.session;
    if (histogram === undefined) return;
    const attributes: Attributes = transportAttributes(this.#spans);
    if (this.#spans.protocolVersion !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = this.#spans.protocolVersion;
    const errorType = this.#ending?.errorType();
    if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
    recordSince(histogram, openedAt, attributes);
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
    // Every request the gateway answers itself runs in its SERVER span (request-span.ts); what
    // the SDK answers on its own (initialize, ping, logging/setLevel) gets one in connect.
    this.server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, () => {
        this.#askRootsOnce(extra.sendRequest);
        return Promise.resolve(listToolsResult(catalog));
      }),
    );
    // The calls the fast path does not take (task-augmented ones, malformed ones the SDK refuses).
    this.server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      this.#answerToolCall(
        { method: request.method, params: request.params, id: extra.requestId },
        { signal: extra.signal, sendProgress: extra.sendNotification },
        extra.sendRequest,
      ),
    );
    this.server.setRequestHandler(ListPromptsRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, async () => ({
        prompts: await catalog.listPrompts(),
      })),
    );
    this.server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, () =>
        getPrompt(catalog, request.params, extra.signal),
      ),
    );
    this.server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, async () => ({
        resources: await catalog.listResources(),
      })),
    );
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, async () => ({
        resourceTemplates: await catalog.listResourceTemplates(),
      })),
    );
    this.server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, () =>
        readResource(catalog, request.params.uri, extra.signal),
      ),
    );
    this.server.setRequestHandler(SubscribeRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, () =>
        this.#subscribe(request.params.uri, extra.signal),
      ),
    );
    this.server.setRequestHandler(UnsubscribeRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, () =>
        this.#unsubscribe(request.params.uri),
      ),
    );
    this.server.setRequestHandler(CompleteRequestSchema, (request, extra) =>
      inRequestSpan({ method: request.method, params: request.params, id: extra.requestId }, this.#spans, () =>
        complete(catalog, request.params, extra.signal),
      ),
    );
  }

  /** resources/subscribe: one listener on the upstream that owns `uri`, kept until unsubscribe or the session ends. */
  async #subscribe(uri: string, signal: AbortSignal): Promise<Record<string, never>> {
    if (this.#subscriptions.has(uri)) return {};
    const adapter = await resourceUpstream(this.#context.catalog, uri, "subscribeResource");
    const subscription = unwrap(
      await adapter.subscribeResource(
        uri,
        () => {
          this.server.sendResourceUpdated({ uri }).catch(() => undefined);
        },
        { signal },
      ),
      `subscribing to resource "${uri}"`,
    );
    // A second subscribe of the same URI while the first was on its way: keep one listener.
    if (this.#subscriptions.has(uri)) void subscription.unsubscribe().catch(() => undefined);
    else this.#subscriptions.set(uri, subscription);
    return {};
  }

  async #unsubscribe(uri: string): Promise<Record<string, never>> {
    const subscription = this.#subscriptions.get(uri);
    this.#subscriptions.delete(uri);
    const result = await subscription?.unsubscribe();
    if (result !== undefined && !result.success) unwrap(result, `unsubscribing from "${uri}"`);
    return {};
  }

  /** `askWith`: how a roots/list asked during the call is sent, or the id of the request it belongs to. */
  #answerToolCall(
    request: SpannedRequest & { readonly params: ToolCallParams },
    call: { readonly signal: AbortSignal; sendProgress: ProgressSender },
    askWith: RelatedRequestSender | RequestId,
  ): Promise<CallToolResult> {
    this.#askRootsOnce(askWith);
    return inRequestSpan(request, this.#spans, () => this.#callTool(request.params, call));
  }

  /** Not async: a call with no approval to ask goes to forwardCall in the same turn, and its promise is the answer's. */
  #callTool(
    params: ToolCallParams,
    call: { readonly signal: AbortSignal; sendProgress: ProgressSender },
  ): Promise<CallToolResult> {
    const { catalog, approval } = this.#context;
    let target: ReturnType<typeof findCallTarget>;
    try {
      target = findCallTarget(catalog, params.name);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(describeCause(error)));
    }
    if ("failure" in target) return Promise.resolve(target.failure);
    const args = params.arguments ?? {};
    if (knownNotToNeedApproval(approval, target.tool)) return this.#forward(target, args, params, call);
    return approveCall({ approval, tool: target.tool, args, session: this, signal: call.signal }).then((refusal) =>
      refusal === undefined ? this.#forward(target, args, params, call) : failure(refusal),
    );
  }

  #forward(
    target: { tool: CatalogTool; adapter: ServerSetAdapter },
    args: Record<string, unknown>,
    params: ToolCallParams,
    call: { readonly signal: AbortSignal; sendProgress: ProgressSender },
  ): Promise<CallToolResult> {
    const progressToken = params._meta?.progressToken;
    return forwardCall({
      tool: target.tool,
      adapter: target.adapter,
      args,
      client: this,
      router: this.#context.router,
      signal: call.signal,
      onProgress:
        progressToken === undefined
          ? undefined
          : (progress) => {
              call
                .sendProgress({ method: "notifications/progress", params: { progressToken, ...progress } })
                .catch(() => undefined);
            },
    });
  }

  /**
   * The client's roots, asked for at its first tools request rather than at `initialized`: over
   * streamable HTTP a request the server starts on its own needs the client's GET stream, which
   * may not be open yet then, while a request tied to one of the client's goes out on its response.
   * Not awaited: the answer comes back on its own, and the client's request is not held up.
   */
  #askRootsOnce(askWith: RelatedRequestSender | RequestId): void {
    if (this.#rootsAsked) return;
    const capabilities = this.server.getClientCapabilities();
    // A client that initialized without roots never has any to ask for: not asked again per call.
    if (capabilities !== undefined) this.#rootsAsked = true;
    if (capabilities?.roots === undefined) return;
    const asked =
      typeof askWith === "function"
        ? askWith({ method: "roots/list" }, ListRootsResultSchema)
        : this.server.request({ method: "roots/list" }, ListRootsResultSchema, { relatedRequestId: askWith });
    asked.then(
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

type ProgressSender = (notification: {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}) => Promise<void>;

type RelatedRequestSender = (
  request: { method: "roots/list" },
  schema: typeof ListRootsResultSchema,
) => Promise<{ roots: MCPRoot[] }>;
