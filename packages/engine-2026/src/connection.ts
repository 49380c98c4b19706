import type {
  MCPEngineConnection,
  MCPEngineConnectRequest,
  MCPEngineMessage,
  MCPEngineRequestOptions,
  MCPImplementation,
  MCPProtocolEra,
  MCPServerCapabilities,
} from "@mcp-tool-adapter/core";
import { untilAborted } from "@mcp-tool-adapter/core";
import {
  endTransportSession,
  MCP_ANSWERED_REQUEST_METHODS,
  MCP_FOLLOWED_NOTIFICATIONS,
  type RelatedRequestTags,
} from "@mcp-tool-adapter/core/protocol";
import {
  ProtocolError,
  ProtocolErrorCode,
  type Client,
  type RequestMethod,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import { toSdkHandlerError, toSeamError } from "./errors.js";
import { ListenChannel } from "./listen-channel.js";
import { cancelTask, carriedTask, carryTaskResults, driveTask, serverOffersTasks } from "./modern-tasks.js";
import { isTaskableRequest, isTaskRequest, JSON_OBJECT_SCHEMA } from "./task-requests.js";

type Params = Record<string, unknown> | undefined;
/** What a request handler reads of the SDK's context: the server request's signal and id. */
type HandlerContext = { mcpReq: { signal: AbortSignal; id: string | number } };
type TaskableAnswer = (params: Params, context: HandlerContext) => Promise<never>;
type CallToolParams = Parameters<Client["callTool"]>[0];

/** The SDK's own default request timeout, for a task driven without a `timeout` option. */
const DEFAULT_CALL_TIMEOUT_MS = 60_000;

/** The key that marks a parameter the SDK mirrors into an `Mcp-Param-*` header on 2026-07-28. */
const HEADER_DECLARATION = "x-mcp-header";

/** Whether a tool's input schema declares any `x-mcp-header` parameter, at any depth. */
function declaresHeaders(tool: Tool): boolean {
  return JSON.stringify(tool.inputSchema).includes(`"${HEADER_DECLARATION}"`);
}

/** One connection of the 2026 engine: an SDK v2 Client on its transport, in the seam's plain terms. */
export class Engine2026Connection implements MCPEngineConnection {
  readonly #client: Client;
  readonly #transport: Transport;
  /**
   * The tools of the last tools/list, by name, as tools/call hands them to the SDK: what it mirrors
   * `x-mcp-header` arguments from, stripped of their output schema once here, not on every call;
   * `null` for a tool that declares no `x-mcp-header`, which needs none of `callTool`'s work.
   */
  #callDefinitions = new Map<string, Tool | null>();
  #listenChannel: ListenChannel | undefined;
  /** Set when list changes may have been missed: the next tools/list bypasses the SDK's cache. */
  #toolsMayBeStale = false;
  #closed = false;
  readonly #listeners: MCPEngineConnectRequest["listeners"];
  readonly #handlers: MCPEngineConnectRequest["requestHandlers"];
  /** The answers to the requests a 2025 server may ask us to run as a task (see `answerTaskRequests`). */
  readonly #taskableAnswers = new Map<string, TaskableAnswer>();
  readonly #now: () => number;
  readonly #abortedTaskWaitMs: number;
  /**
   * Which of our requests a server's request belongs to, when the transport links them (a 2025-era
   * server's request on a POST's response stream): the handler gets that request's tag as
   * `relatedTag`, as on the default engine. Undefined on a connection pinned to 2026-07-28, whose
   * servers ask inside results instead.
   */
  readonly #links: RelatedRequestTags | undefined;

  constructor(
    client: Client,
    transport: Transport,
    request: MCPEngineConnectRequest,
    settings: { now: () => number; abortedTaskWaitMs: number; links: RelatedRequestTags | undefined },
  ) {
    this.#client = client;
    this.#transport = transport;
    this.#now = settings.now;
    this.#abortedTaskWaitMs = settings.abortedTaskWaitMs;
    const links = settings.links;
    this.#links = links;
    const { listeners, requestHandlers } = request;
    this.#listeners = listeners;
    this.#handlers = requestHandlers;
    client.onclose = () => {
      this.#closed = true;
      links?.clear();
      void this.#listenChannel?.close();
      listeners.closed();
    };
    client.onerror = (error) => {
      listeners.error(error);
    };
    // Core's list of followed notifications; on 2026-07-28 the list changes arrive on the `subscriptions/listen` stream.
    for (const method of MCP_FOLLOWED_NOTIFICATIONS) {
      client.setNotificationHandler(method, (notification: { method: string; params?: Params }) => {
        listeners.notification(
          notification.params === undefined
            ? { method: notification.method }
            : { method: notification.method, params: notification.params },
        );
      });
    }
    for (const method of MCP_ANSWERED_REQUEST_METHODS) {
      const handler = requestHandlers[method];
      if (handler === undefined) continue;
      const answer = async (params: Params, context: HandlerContext): Promise<never> => {
        const { signal, id } = context.mcpReq;
        const relatedTag = links?.tagOf(id);
        try {
          return (await handler(params ?? {}, relatedTag === undefined ? { signal } : { signal, relatedTag })) as never;
        } catch (error) {
          throw toSdkHandlerError(error, client.getProtocolEra() === "modern");
        }
      };
      if (isTaskRequest(method, undefined)) {
        // SDK v2 left the task methods to an extension: registered as custom methods (params: any object).
        client.setRequestHandler(method, { params: JSON_OBJECT_SCHEMA }, answer);
      } else {
        if (isTaskableRequest(method)) this.#taskableAnswers.set(method, answer);
        client.setRequestHandler(method as RequestMethod, (sent: { params?: Params }, context: HandlerContext) =>
          answer(sent.params, context),
        );
      }
    }
  }

  /**
   * What depends on the era, once the Client is connected: on 2026-07-28, task answers to tools/call
   * reach the engine (see modern-tasks.ts); on 2025, the requests a server may run as tasks are
   * answered as such.
   */
  connected(): void {
    if (this.era === "2026-07-28") carryTaskResults(this.#transport);
    else this.#answerTaskRequests();
  }

  /**
   * On a 2025 connection, a server may ask for an elicitation or sampling to run as a task
   * (`params.task`, allowed by our `tasks` capability) and gets a CreateTaskResult from the adapter's
   * handler. SDK v2's Client checks every answer of a handler registered for these methods as the
   * request's own result and would refuse that one (its `Client._wrapHandler`), but it hands
   * requests without a registered handler to `fallbackRequestHandler` unchecked; so once the
   * connection is known to be on 2025, these methods move there (the adapter checks the answers
   * itself, as on the default engine). On 2026-07-28 they stay registered: the Client fulfils
   * `input_required` results through the registered handlers.
   */
  #answerTaskRequests(): void {
    if (this.#taskableAnswers.size === 0) return;
    const answers = this.#taskableAnswers;
    for (const method of answers.keys()) this.#client.removeRequestHandler(method);
    this.#client.fallbackRequestHandler = async (request, context) => {
      const answer = answers.get(request.method);
      if (answer === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
      return await answer(request.params, context);
    };
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

  /**
   * On 2026-07-28 a server sends list changes only on a `subscriptions/listen` stream: opens one
   * for the lists whose changes the server announces (its `listChanged` capabilities), so they
   * reach the same handlers as a 2025 server's unsolicited notifications. Resolves once the server
   * acknowledged; a server that refuses is reported as an error (the connection still works, its
   * lists just do not refresh by themselves). When the server later ends the stream, the channel
   * listens again and the lists are fetched afresh (see ListenChannel). Nothing to do on 2025.
   */
  async listen(timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.era !== "2026-07-28") return;
    const capabilities = this.serverCapabilities;
    const changes = {
      toolsListChanged: capabilities?.tools?.listChanged === true,
      promptsListChanged: capabilities?.prompts?.listChanged === true,
      resourcesListChanged: capabilities?.resources?.listChanged === true,
    };
    const filter = Object.fromEntries(Object.entries(changes).filter(([, wanted]) => wanted));
    if (Object.keys(filter).length === 0) return;
    const channel = new ListenChannel({
      client: this.#client,
      filter,
      timeoutMs,
      now: this.#now,
      onResubscribed: () => {
        this.#announceMissedChanges(changes);
      },
      onGaveUp: (error) => {
        if (!this.#closed) this.#listeners.error(error);
      },
    });
    this.#listenChannel = channel;
    try {
      await channel.open(signal);
    } catch (error) {
      if (signal.aborted) throw toSeamError(error);
      this.#listeners.error(toSeamError(error));
    }
  }

  /**
   * Nothing is replayed on a new stream, so a change made while none was open reached nobody: tell
   * the adapter each followed list may have changed (it lists again and diffs), and make the next
   * tools/list skip the SDK's cache, whose entry may predate the change.
   */
  #announceMissedChanges(
    changes: Record<"toolsListChanged" | "promptsListChanged" | "resourcesListChanged", boolean>,
  ): void {
    if (this.#closed) return;
    if (changes.toolsListChanged) {
      this.#toolsMayBeStale = true;
      this.#listeners.notification({ method: "notifications/tools/list_changed" });
    }
    if (changes.promptsListChanged) this.#listeners.notification({ method: "notifications/prompts/list_changed" });
    if (changes.resourcesListChanged) this.#listeners.notification({ method: "notifications/resources/list_changed" });
  }

  /**
   * A request. With `links`, inside `sending`: the SDK's `request()` hands the request to the
   * transport before it returns, and every path below reaches it before its first await, except
   * `callTool` (a tool not listed, or on 2026-07-28 one with `x-mcp-header` parameters), whose
   * server requests then stay unlinked.
   */
  request(request: MCPEngineMessage, options: MCPEngineRequestOptions = {}): Promise<unknown> {
    const links = this.#links;
    return links === undefined
      ? this.#request(request, options)
      : links.sending(options.tag, () => this.#request(request, options));
  }

  async #request(request: MCPEngineMessage, options: MCPEngineRequestOptions): Promise<unknown> {
    try {
      if (this.era === "2026-07-28" && request.method === "tools/call") {
        // On 2026-07-28 the server decides which calls run as tasks (we declare the extension): no `task` param.
        const { task: _task, ...params } = request.params ?? {};
        return await this.#modernCall(params, options);
      }
      if (isTaskRequest(request.method, request.params)) {
        return await this.#client.request(
          request as { method: RequestMethod; params?: Params },
          JSON_OBJECT_SCHEMA,
          options,
        );
      }
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
    const refresh = this.#toolsMayBeStale && params?.cursor === undefined;
    const result = await this.#client.listTools(params, refresh ? { ...options, cacheMode: "refresh" } : options);
    if (params?.cursor === undefined) {
      this.#callDefinitions = new Map(
        result.tools.map((tool) => [tool.name, declaresHeaders(tool) ? { ...tool, outputSchema: undefined } : null]),
      );
      if (refresh) this.#toolsMayBeStale = false;
    }
    return result;
  }

  /**
   * tools/call. For a listed tool with `x-mcp-header` parameters, through the SDK's `callTool` with
   * the listed definition, so it mirrors those arguments into headers; without its output schema,
   * because the adapter checks structured output itself (with its own validator and error kind).
   * For a listed tool without any, as a plain request: `callTool` would only look the tool up, scan
   * its schema for headers and skip the output check again, on every call (about a tenth of the
   * client's CPU per call over stdio). On 2025, where nothing is mirrored, every listed tool's call
   * is a plain request, which also sends at once: `callTool` sends only after an await, too late for
   * `links` to tag the request, so a 2025 server's questions during it would stay unlinked. A tool
   * not listed gets `callTool` and the SDK's own lookup.
   */
  #callTool(params: Record<string, unknown>, options: MCPEngineRequestOptions): Promise<unknown> {
    const toolDefinition = this.#callDefinitions.get(params.name as string);
    if (toolDefinition === null || (toolDefinition !== undefined && this.era === "2025")) {
      return this.#client.request({ method: "tools/call", params }, options);
    }
    return this.#client.callTool(
      params as CallToolParams,
      toolDefinition === undefined ? options : { ...options, toolDefinition },
    );
  }

  /** tools/call on 2026-07-28: a task the server answers with is driven to its end here, within the call's timeout. */
  async #modernCall(params: Record<string, unknown>, options: MCPEngineRequestOptions): Promise<unknown> {
    const started = this.#now();
    const result = await this.#callListeningPastAbort(params, options);
    const task = carriedTask(result);
    if (task === undefined) return result;
    return await driveTask(task, {
      client: this.#client,
      handlers: this.#handlers,
      timeoutMs: options.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
      started,
      now: this.#now,
      signal: options.signal,
    });
  }

  /**
   * tools/call; when the caller aborts before the answer and the server offers tasks, the call
   * settles with the abort at once, but the request listens on (abortedTaskWaitMs) for an answer
   * carrying a task, and cancels that task. It does not tell the server to drop the request: its
   * answer is the only handle on a task it may already have created.
   */
  #callListeningPastAbort(params: Record<string, unknown>, options: MCPEngineRequestOptions): Promise<unknown> {
    const { signal } = options;
    if (signal === undefined || !serverOffersTasks(this.#client.getServerCapabilities()))
      return this.#callTool(params, options);
    const listening = new AbortController();
    let stopListening: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      stopListening = setTimeout(() => listening.abort(signal.reason), this.#abortedTaskWaitMs);
      stopListening.unref();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
    const calling = this.#callTool(params, { ...options, signal: listening.signal }).finally(() => {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(stopListening);
    });
    return untilAborted(calling, signal, (late) => {
      const task = carriedTaskOrNone(late);
      if (task !== undefined) void cancelTask(this.#client, task.taskId);
    });
  }

  async notify(notification: MCPEngineMessage): Promise<void> {
    try {
      await this.#client.notification(notification);
    } catch (error) {
      throw toSeamError(error);
    }
  }

  /**
   * The DELETE that ends a 2025-era streamable HTTP session (StreamableHttpByEra sends it only
   * after the 2025 handshake: a 2026-07-28 connection has no session). Nothing once the connection
   * closed: the SDK's Client heard the close, so the connection was lost, not closed on purpose.
   */
  endSession(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return endTransportSession(this.#transport);
  }

  async close(): Promise<void> {
    if (this.#closed) {
      await this.#transport.close();
      return;
    }
    this.#closed = true;
    await this.#listenChannel?.close();
    await this.#client.close();
  }
}

/** The task a late answer carries, if any (a malformed one is no task to cancel). */
function carriedTaskOrNone(result: unknown): { taskId: string } | undefined {
  try {
    return carriedTask(result);
  } catch {
    return undefined;
  }
}
