// The low-level `Server` is deprecated for applications, but a test server needs it: it serves
// arbitrary JSON Schemas and raw (even malformed) results that McpServer would refuse to send.
/* eslint-disable @typescript-eslint/no-deprecated */
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";

type RawCallHandler = (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<unknown>;

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
  /**
   * What a call returns. A CallToolResult is sent as is; anything else is sent as the raw
   * result (so a test can answer with a bare content list). A throw becomes a JSON-RPC error.
   * Default: one text item echoing the arguments.
   */
  handler?: TestToolHandler;
}

export interface InMemoryTestServerOptions {
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
  };
}

export function createInMemoryTestServer(options: InMemoryTestServerOptions = {}): InMemoryTestServer {
  const tools = new Map<string, TestTool>((options.tools ?? []).map((t) => [t.name, t]));
  const sessions = new Set<Server>();
  let callCount = 0;

  const notifyAll = async (): Promise<void> => {
    await Promise.all([...sessions].map((s) => s.sendToolListChanged().catch(() => undefined)));
  };

  const newSession = (): Server => {
    const server = new Server(
      { name: options.name ?? "in-memory-test-server", version: options.version ?? "1.0.0" },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      const all = [...tools.values()].map(toListing);
      if (options.pageSize === undefined) return { tools: all };
      const start = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
      const end = start + options.pageSize;
      return { tools: all.slice(start, end), ...(end < all.length ? { nextCursor: String(end) } : {}) };
    });
    // Registered through Protocol, not Server: Server validates tools/call results against
    // CallToolResultSchema, which would turn a legacy answer (a bare content list) into an error.
    const setRawHandler = Protocol.prototype.setRequestHandler as unknown as (this: unknown, schema: typeof CallToolRequestSchema, handler: RawCallHandler) => void;
    setRawHandler.call(server, CallToolRequestSchema, async (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
      callCount += 1;
      const tool = tools.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      const args = request.params.arguments ?? {};
      const result = tool.handler ? await tool.handler(args, extra) : echoResult(args);
      return result as CallToolResult;
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
    async connect() {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = newSession();
      sessions.add(server);
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
      await Promise.all([...sessions].map((s) => s.close().catch(() => undefined)));
      sessions.clear();
    },
  };
}
