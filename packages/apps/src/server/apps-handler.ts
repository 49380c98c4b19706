import type { MCPRequestResult, MCPToolUiResource, ReadToolUiOptions } from "@mcp-tool-adapter/adapter";
import { isVisibleToModel, toolUiOf, type RegisteredTool, type ToolCallResult } from "@mcp-tool-adapter/registry";
import {
  APPS_ROUTES,
  type AppsCallRequest,
  type AppsCallResult,
  type AppsErrorBody,
  type AppsToolInfo,
} from "../channel.js";

/** What the handler serves: an MCPServerSet fits (its registry, and its adapters by server name). */
export interface AppsServerSource {
  readonly registry: {
    list(): readonly RegisteredTool[];
    get(name: string): RegisteredTool | undefined;
    call(name: string, args?: Record<string, unknown>, context?: { signal?: AbortSignal }): Promise<ToolCallResult>;
  };
  getAdapter(
    serverName: string,
  ):
    | { readToolUi?(toolName: string, options?: ReadToolUiOptions): Promise<MCPRequestResult<MCPToolUiResource>> }
    | undefined;
}

export interface AppsHandlerOptions {
  /** The server set (or anything with its registry and adapters). */
  readonly servers: AppsServerSource;
  /** Where the routes live, e.g. "/api/apps" (default "/"). */
  readonly basePath?: string;
  /** Refuse UI resources larger than this (bytes; default the adapter's 4 MiB). */
  readonly maxUiBytes?: number;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
}

/** A handler in the Fetch API's shape, as Next.js route handlers, Hono, Bun and Deno take it. */
export type AppsFetchHandler = (request: Request) => Promise<Response>;

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The server side of the apps channel over a server set: lists the tools (with their UI
 * references), reads a tool's UI, and calls tools, refusing an app's call to a tool of another
 * server or one hidden from apps. Answers 404 for a path outside `basePath`.
 */
export function createAppsFetchHandler(options: AppsHandlerOptions): AppsFetchHandler {
  const base = `/${(options.basePath ?? "").replace(/^\/+|\/+$/g, "")}`.replace(/\/$/, "");
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { servers } = options;
  return async (request) => {
    const url = new URL(request.url);
    const route = url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length + 1) : undefined;
    try {
      if (route === APPS_ROUTES.tools && request.method === "GET") {
        return json(200, { tools: servers.registry.list().map(toolInfo) });
      }
      if (route === APPS_ROUTES.ui && request.method === "GET") {
        return await readUi(servers, url.searchParams.get("tool"), options.maxUiBytes);
      }
      if (route === APPS_ROUTES.call && request.method === "POST") {
        return await callTool(servers, await readBody(request, maxBody), request.signal);
      }
      return failure(
        404,
        "BAD_REQUEST",
        `no apps route ${request.method} ${url.pathname} (routes: ${routeList(base)})`,
      );
    } catch (error) {
      if (error instanceof RequestProblem) return failure(error.status, error.code, error.message);
      return failure(
        500,
        "CHANNEL_FAILED",
        `the apps handler failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
}

function routeList(base: string): string {
  return `GET ${base}/${APPS_ROUTES.tools}, GET ${base}/${APPS_ROUTES.ui}?tool=server/name, POST ${base}/${APPS_ROUTES.call}`;
}

function toolInfo(tool: RegisteredTool): AppsToolInfo {
  const ui = toolUiOf(tool);
  const title = tool.sourceMetadata.title;
  return {
    name: tool.name,
    server: tool.namespace,
    ...(typeof title === "string" ? { title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema,
    writes: tool.capabilities.writes,
    ...(ui === undefined ? {} : { ui }),
  };
}

async function readUi(servers: AppsServerSource, name: string | null, maxBytes: number | undefined): Promise<Response> {
  if (name === null) throw new RequestProblem(400, "BAD_REQUEST", `GET ${APPS_ROUTES.ui} needs ?tool=<server/name>`);
  const tool = servers.registry.get(name);
  if (tool === undefined) throw new RequestProblem(404, "TOOL_NOT_FOUND", `no tool "${name}" in the server set`);
  const adapter = servers.getAdapter(tool.namespace);
  if (adapter?.readToolUi === undefined)
    throw new RequestProblem(404, "UI_UNAVAILABLE", `server "${tool.namespace}" cannot serve tool UIs`);
  const read = await adapter.readToolUi(tool.localName, maxBytes === undefined ? {} : { maxBytes });
  if (!read.success) {
    const status = read.errorKind === "not_found" ? 404 : 502;
    throw new RequestProblem(status, "UI_UNAVAILABLE", `the UI of "${name}" is unavailable: ${read.error}`);
  }
  const { uri, html, csp, permissions, prefersBorder } = read.data;
  return json(200, {
    resource: {
      tool: name,
      uri,
      html,
      ...(csp === undefined ? {} : { csp }),
      ...(permissions === undefined ? {} : { permissions }),
      ...(prefersBorder === undefined ? {} : { prefersBorder }),
    },
  });
}

async function callTool(servers: AppsServerSource, body: unknown, signal: AbortSignal): Promise<Response> {
  const call = readCallRequest(body);
  const tool = servers.registry.get(call.name);
  if (tool === undefined) throw new RequestProblem(404, "TOOL_NOT_FOUND", `no tool "${call.name}" in the server set`);
  if (call.app !== undefined) checkAppMayCall(servers, call.app, tool);
  else if (!isVisibleToModel(tool))
    throw new RequestProblem(
      403,
      "CALL_REFUSED",
      `"${call.name}" is a tool for its app alone; name the app calling it`,
    );
  const outcome = await servers.registry.call(call.name, call.arguments ?? {}, { signal });
  return json(200, { result: toCallResult(outcome) });
}

/** An app calls tools of its own server that its server made visible to apps; nothing else. */
function checkAppMayCall(servers: AppsServerSource, appTool: string, tool: RegisteredTool): void {
  const app = servers.registry.get(appTool);
  if (app === undefined || toolUiOf(app)?.resourceUri === undefined)
    throw new RequestProblem(403, "CALL_REFUSED", `"${appTool}" is not a tool with an app`);
  if (app.namespace !== tool.namespace)
    throw new RequestProblem(
      403,
      "CALL_REFUSED",
      `the app of "${appTool}" may not call "${tool.name}" of another server`,
    );
  if (!(toolUiOf(tool)?.visibility.includes("app") ?? true))
    throw new RequestProblem(403, "CALL_REFUSED", `"${tool.name}" is a tool for the model alone; apps may not call it`);
}

function readCallRequest(body: unknown): AppsCallRequest {
  const record =
    typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const { name, app } = record;
  const args = record.arguments;
  if (typeof name !== "string") throw new RequestProblem(400, "BAD_REQUEST", 'the call needs a "name" (string)');
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args)))
    throw new RequestProblem(400, "BAD_REQUEST", '"arguments" must be a JSON object');
  if (app !== undefined && typeof app !== "string")
    throw new RequestProblem(400, "BAD_REQUEST", '"app" must be the name of the tool whose app calls');
  return {
    name,
    ...(args === undefined ? {} : { arguments: args as Record<string, unknown> }),
    ...(app === undefined ? {} : { app }),
  };
}

/** A registry result in MCP's shape: the server's own answer when there is one, else the failure as text. */
function toCallResult(outcome: ToolCallResult): AppsCallResult {
  const data = outcome.data;
  if (typeof data === "object" && data !== null && Array.isArray((data as { content?: unknown }).content)) {
    const result = data as AppsCallResult;
    return outcome.success ? result : { ...result, isError: true };
  }
  if (outcome.success) return { content: [{ type: "text", text: JSON.stringify(data ?? null) }] };
  return { content: [{ type: "text", text: outcome.error ?? "the tool call failed" }], isError: true };
}

async function readBody(request: Request, maxBytes: number): Promise<unknown> {
  const text = await request.text();
  if (new TextEncoder().encode(text).length > maxBytes)
    throw new RequestProblem(413, "BAD_REQUEST", `the request body is over ${maxBytes} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestProblem(400, "BAD_REQUEST", "the request body is not JSON");
  }
}

class RequestProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function failure(status: number, code: string, message: string): Response {
  return json(status, { error: { code, message } } satisfies AppsErrorBody);
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}
