// The low-level `Server` is deprecated for applications, but a test server needs it: it serves
// arbitrary JSON Schemas and raw (even malformed) results that McpServer would refuse to send.
/* eslint-disable @typescript-eslint/no-deprecated */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  RootsListChangedNotificationSchema,
  type LoggingMessageNotification,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  McpError,
  ErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

type RawCallHandler = (
  request: CallToolRequest,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
) => Promise<unknown>;

export type TestToolHandler = (
  args: Record<string, unknown>,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
) => unknown;

/** A tool served by an in-process test server: its MCP listing plus what a call does. */
export interface TestTool {
  name: string;
  description?: string;
  title?: string;
  inputSchema?: Tool["inputSchema"];
  outputSchema?: Tool["outputSchema"];
  annotations?: Tool["annotations"];
  /** Listed as is (e.g. MCP Apps' `{ ui: { resourceUri } }`). */
  _meta?: Tool["_meta"];
  /**
   * What a call returns. A CallToolResult is sent as is; anything else is sent as the raw
   * result (so a test can answer with a bare content list). A throw becomes a JSON-RPC error.
   * Default: one text item echoing the arguments.
   */
  handler?: TestToolHandler;
}

/** A resource served by an in-process test server: its listing plus what a read returns. */
export interface TestResource extends Resource {
  /** Text contents of a read (default: "contents of <uri>"), unless `blob` or `read` is given. */
  text?: string;
  /** Base64 contents of a read. */
  blob?: string;
  /** What a read returns, sent as is (a throw becomes a JSON-RPC error). */
  read?: () => unknown;
}

/** A prompt served by an in-process test server; `handler` answers prompts/get (default: echoes the arguments). */
export interface TestPrompt extends Prompt {
  handler?: (args: Record<string, string>) => unknown;
}

export interface InMemoryTestServerOptions {
  /** Declares the resources capability (with subscribe and listChanged) and serves these. */
  resources?: TestResource[];
  resourceTemplates?: ResourceTemplate[];
  /** Declares the prompts capability (with listChanged) and serves these. */
  prompts?: TestPrompt[];
  /** Declares the completions capability; answers completion/complete with these values. */
  complete?: (params: { ref: unknown; argument: { name: string; value: string }; context?: unknown }) => string[];
  /** Declares the logging capability (logging/setLevel is recorded in `logLevels`). */
  logging?: boolean;
  name?: string;
  version?: string;
  tools?: TestTool[];
  /** Serve tools/list in pages of this size (cursor = next offset). Default: all at once. */
  pageSize?: number;
}

/**
 * An in-process MCP server reached through SDK InMemoryTransports. Every `connect()` builds a
 * fresh server session on a fresh linked pair, so one test server survives reconnects.
 */
export interface InMemoryTestServer {
  readonly tools: readonly TestTool[];
  /** Number of tools/call requests received so far, over every session. */
  readonly callCount: number;
  /** A new client-side Transport linked to a new server session. */
  connect(): Promise<Transport>;
  /** Adds (or replaces) a tool and tells every connected client its tool list changed. */
  addTool(tool: TestTool): Promise<void>;
  removeTool(name: string): Promise<void>;
  /** URIs each `resources/subscribe` named, minus those unsubscribed, over every session. */
  readonly subscriptions: readonly string[];
  /** Every level `logging/setLevel` asked for, in order. */
  readonly logLevels: readonly string[];
  /** Number of resources/list, prompts/list and prompts/get requests received. */
  readonly listCount: number;
  readonly promptGetCount: number;
  /** Sends `notifications/message` to every session. */
  sendLog(params: LoggingMessageNotification["params"]): Promise<void>;
  /** Sends `count` log notifications to every session without waiting between them. */
  floodLogs(count: number): Promise<void>;
  sendResourceUpdated(uri: string): Promise<void>;
  /** Replaces the resources and tells every session the list changed. */
  setResources(resources: TestResource[]): Promise<void>;
  /** Replaces the prompts and tells every session the list changed. */
  setPrompts(prompts: TestPrompt[]): Promise<void>;
  /** Sends `notifications/resources/list_changed` `count` times to every session without waiting. */
  floodResourceListChanged(count: number): Promise<void>;
  /** The capabilities the client of the newest session declared. */
  readonly clientCapabilities: Record<string, unknown> | undefined;
  /**
   * Sends a request to the client of the newest session (`elicitation/create`,
   * `sampling/createMessage`, `roots/list`...) without checking what the client declared, as a
   * careless or hostile server would; resolves with the raw result, rejects with the client's error.
   */
  requestFromClient(
    method: string,
    params?: Record<string, unknown>,
    options?: { timeoutMs?: number },
  ): Promise<unknown>;
  /** Number of notifications/roots/list_changed received. */
  readonly rootsChangedCount: number;
  /** Closes every open session. */
  close(): Promise<void>;
}

export function echoResult(args: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(args) }] };
}

function toListing(tool: TestTool): Tool {
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description ?? `Test tool ${tool.name}`,
    inputSchema: tool.inputSchema ?? { type: "object" },
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool._meta === undefined ? {} : { _meta: tool._meta }),
  };
}

export function createInMemoryTestServer(options: InMemoryTestServerOptions = {}): InMemoryTestServer {
  const tools = new Map<string, TestTool>((options.tools ?? []).map((t) => [t.name, t]));
  const sessions = new Set<Server>();
  let callCount = 0;
  let resources = options.resources ?? [];
  let prompts = options.prompts ?? [];
  const subscriptions: string[] = [];
  const logLevels: string[] = [];
  let listCount = 0;
  let rootsChangedCount = 0;
  let newest: Server | undefined;
  let promptGetCount = 0;
  const page = <T>(all: T[], cursor: string | undefined): { items: T[]; nextCursor?: string } => {
    if (options.pageSize === undefined) return { items: all };
    const start = cursor === undefined ? 0 : Number(cursor);
    const end = start + options.pageSize;
    return { items: all.slice(start, end), ...(end < all.length ? { nextCursor: String(end) } : {}) };
  };

  const notifyAll = async (): Promise<void> => {
    await Promise.all([...sessions].map((s) => s.sendToolListChanged().catch(() => undefined)));
  };

  const newSession = (): Server => {
    const server = new Server(
      { name: options.name ?? "in-memory-test-server", version: options.version ?? "1.0.0" },
      {
        capabilities: {
          tools: { listChanged: true },
          ...(options.resources === undefined && options.resourceTemplates === undefined
            ? {}
            : { resources: { subscribe: true, listChanged: true } }),
          ...(options.prompts === undefined ? {} : { prompts: { listChanged: true } }),
          ...(options.complete === undefined ? {} : { completions: {} }),
          ...(options.logging === true ? { logging: {} } : {}),
        },
      },
    );
    if (options.resources !== undefined || options.resourceTemplates !== undefined) {
      server.setRequestHandler(ListResourcesRequestSchema, (request) => {
        listCount += 1;
        const { items, nextCursor } = page(
          resources.map(({ text: _t, blob: _b, read: _r, ...listing }) => listing),
          request.params?.cursor,
        );
        return { resources: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
      });
      server.setRequestHandler(ListResourceTemplatesRequestSchema, (request) => {
        const { items, nextCursor } = page(options.resourceTemplates ?? [], request.params?.cursor);
        return { resourceTemplates: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
      });
      const setRawRead = Protocol.prototype.setRequestHandler as unknown as (
        this: unknown,
        schema: typeof ReadResourceRequestSchema,
        handler: (request: { params: { uri: string } }) => unknown,
      ) => void;
      setRawRead.call(server, ReadResourceRequestSchema, (request: { params: { uri: string } }) => {
        const resource = resources.find((candidate) => candidate.uri === request.params.uri);
        if (resource === undefined) throw new McpError(-32002, `Resource ${request.params.uri} not found`);
        if (resource.read !== undefined) return resource.read();
        const body =
          resource.blob === undefined
            ? { text: resource.text ?? `contents of ${resource.uri}` }
            : { blob: resource.blob };
        return {
          contents: [
            { uri: resource.uri, ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }), ...body },
          ],
        };
      });
      server.setRequestHandler(SubscribeRequestSchema, (request) => {
        subscriptions.push(request.params.uri);
        return {};
      });
      server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
        const index = subscriptions.indexOf(request.params.uri);
        if (index >= 0) subscriptions.splice(index, 1);
        return {};
      });
    }
    if (options.prompts !== undefined) {
      server.setRequestHandler(ListPromptsRequestSchema, (request) => {
        listCount += 1;
        const { items, nextCursor } = page(
          prompts.map(({ handler: _h, ...listing }) => listing),
          request.params?.cursor,
        );
        return { prompts: items, ...(nextCursor === undefined ? {} : { nextCursor }) };
      });
      server.setRequestHandler(GetPromptRequestSchema, (request) => {
        promptGetCount += 1;
        const prompt = prompts.find((candidate) => candidate.name === request.params.name);
        if (prompt === undefined)
          throw new McpError(ErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
        const args = request.params.arguments ?? {};
        if (prompt.handler !== undefined) return prompt.handler(args) as { messages: [] };
        return {
          messages: [{ role: "user", content: { type: "text", text: `${prompt.name} ${JSON.stringify(args)}` } }],
        };
      });
    }
    const { complete } = options;
    if (complete !== undefined) {
      server.setRequestHandler(CompleteRequestSchema, (request) => {
        const values = complete(request.params);
        return { completion: { values, total: values.length, hasMore: false } };
      });
    }
    if (options.logging === true) {
      server.setRequestHandler(SetLevelRequestSchema, (request) => {
        logLevels.push(request.params.level);
        return {};
      });
    }
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const all = [...tools.values()].map(toListing);
      if (options.pageSize === undefined) return { tools: all };
      const start = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      const end = start + options.pageSize;
      return { tools: all.slice(start, end), ...(end < all.length ? { nextCursor: String(end) } : {}) };
    });
    // Registered through Protocol, not Server: Server validates tools/call results against
    // CallToolResultSchema, which would turn a legacy answer (a bare content list) into an error.
    const setRawHandler = Protocol.prototype.setRequestHandler as unknown as (
      this: unknown,
      schema: typeof CallToolRequestSchema,
      handler: RawCallHandler,
    ) => void;
    setRawHandler.call(
      server,
      CallToolRequestSchema,
      async (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
        callCount += 1;
        const tool = tools.get(request.params.name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
        const args = request.params.arguments ?? {};
        const result = tool.handler ? await tool.handler(args, extra) : echoResult(args);
        return result as CallToolResult;
      },
    );
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
      rootsChangedCount += 1;
    });
    server.onclose = () => sessions.delete(server);
    return server;
  };

  return {
    get tools() {
      return [...tools.values()];
    },
    get callCount() {
      return callCount;
    },
    get subscriptions() {
      return [...subscriptions];
    },
    get logLevels() {
      return [...logLevels];
    },
    get clientCapabilities() {
      return newest?.getClientCapabilities() as Record<string, unknown> | undefined;
    },
    get rootsChangedCount() {
      return rootsChangedCount;
    },
    async requestFromClient(method, params, requestOptions) {
      if (newest === undefined) throw new Error("requestFromClient: no session is connected");
      const anyResult = { safeParse: (data: unknown) => ({ success: true, data }) } as unknown as Parameters<
        Server["request"]
      >[1];
      const request: Parameters<Server["request"]>[0] = { method, ...(params === undefined ? {} : { params }) };
      const result: unknown = await newest.request(
        request,
        anyResult,
        requestOptions?.timeoutMs === undefined ? undefined : { timeout: requestOptions.timeoutMs },
      );
      return result;
    },
    get listCount() {
      return listCount;
    },
    get promptGetCount() {
      return promptGetCount;
    },
    async sendLog(params) {
      await Promise.all(
        [...sessions].map((s) => s.notification({ method: "notifications/message", params }).catch(() => undefined)),
      );
    },
    async floodLogs(count) {
      const sends: Promise<void>[] = [];
      for (const s of sessions) {
        for (let i = 0; i < count; i++)
          sends.push(
            s
              .notification({ method: "notifications/message", params: { level: "info", data: `flood ${i}` } })
              .catch(() => undefined),
          );
      }
      await Promise.all(sends);
    },
    async sendResourceUpdated(uri) {
      await Promise.all([...sessions].map((s) => s.sendResourceUpdated({ uri }).catch(() => undefined)));
    },
    async setResources(next) {
      resources = next;
      await Promise.all([...sessions].map((s) => s.sendResourceListChanged().catch(() => undefined)));
    },
    async setPrompts(next) {
      prompts = next;
      await Promise.all([...sessions].map((s) => s.sendPromptListChanged().catch(() => undefined)));
    },
    async floodResourceListChanged(count) {
      const sends: Promise<void>[] = [];
      for (const s of sessions)
        for (let i = 0; i < count; i++)
          sends.push(s.notification({ method: "notifications/resources/list_changed" }).catch(() => undefined));
      await Promise.all(sends);
    },
    async connect() {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = newSession();
      sessions.add(server);
      newest = server;
      await server.connect(serverSide);
      return clientSide;
    },
    async addTool(tool) {
      tools.set(tool.name, tool);
      await notifyAll();
    },
    async removeTool(name) {
      tools.delete(name);
      await notifyAll();
    },
    async close() {
      // Only the sessions open now: a client may connect again while these close.
      const closing = [...sessions];
      sessions.clear();
      await Promise.all(closing.map((s) => s.close().catch(() => undefined)));
    },
  };
}
