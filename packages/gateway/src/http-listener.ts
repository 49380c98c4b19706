import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "mcp-tool-adapter";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { isJsonContentType, isLegacyRequest } from "@modelcontextprotocol/server";
import { GatewayError, type GatewayErrorCode } from "./errors.js";
import type { Gateway, GatewayConnection } from "./gateway.js";
import { bearerTokenCheck, guardRequest, isLoopback, type HttpGuardOptions } from "./http-guard.js";
import { createOAuthResourceServer, type OAuthResourceServerOptions } from "./oauth-resource-server.js";
import { sendWebResponse, toWebRequest } from "./web-exchange.js";

export interface GatewayHttpOptions {
  /** Default "127.0.0.1". Any other interface needs `auth`. */
  host?: string;
  /** Default 0: a free port (read it from `url`). */
  port?: number;
  /** Where MCP is served. Default "/mcp". */
  path?: string;
  /** How downstream clients authorize: a static bearer token, or your own check. Required beyond loopback. */
  auth?:
    | { bearerToken: string }
    | { oauth: OAuthResourceServerOptions }
    | { authorize: (request: IncomingMessage) => Promise<void> };
  /** Host header names accepted besides the loopback names and `host` (a proxy's or a DNS name). */
  allowedHosts?: readonly string[];
  /** Origins browsers may call from. Default: local pages only (localhost / 127.0.0.1 / [::1]). */
  allowedOrigins?: readonly string[];
  /**
   * Starts every session id this process hands out (`g1-<uuid>`), so a load balancer can send a
   * session's requests to the process that opened it by a prefix match (docs/gateway.md). 1-32 of
   * `A-Z a-z 0-9 _`.
   */
  sessionIdPrefix?: string;
  /** Largest request body. Default 4 MiB. */
  maxBodyBytes?: number;
  logger?: Logger;
}

/** The gateway listening on HTTP: where, and how to stop it. */
export interface GatewayHttpServer {
  /** e.g. http://127.0.0.1:39211/mcp */
  readonly url: string;
  readonly port: number;
  /** Stops listening and closes every HTTP session (the gateway's upstreams stay up). */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** RFC 9728: where a client finds which authorization server issues tokens for this gateway. */
const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";
const STATUS: Partial<Record<GatewayErrorCode, number>> = {
  UNAUTHORIZED: 401,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SESSION_UNKNOWN: 404,
  TOO_MANY_SESSIONS: 503,
  BAD_REQUEST: 400,
};

interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  connection?: GatewayConnection;
}

/**
 * Serves a gateway over streamable HTTP in both eras on one endpoint: a request carrying the
 * 2026-07-28 `_meta` envelope is answered statelessly (`gateway.serveStateless`), and 2025-era
 * traffic gets sessions (`Mcp-Session-Id`): an `initialize` without a session opens one, every
 * later request names it. The era is told apart by the v2 SDK's own classifier. Every request passes the Host,
 * Origin and authorization checks first, and a body past the limit is refused before it is read whole.
 */
export async function listenHttp(gateway: Gateway, options: GatewayHttpOptions = {}): Promise<GatewayHttpServer> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const oauth =
    options.auth !== undefined && "oauth" in options.auth ? createOAuthResourceServer(options.auth.oauth) : undefined;
  const authorize =
    options.auth === undefined
      ? undefined
      : "bearerToken" in options.auth
        ? bearerTokenCheck(options.auth.bearerToken)
        : "oauth" in options.auth
          ? oauth?.authorize
          : options.auth.authorize;
  if (!isLoopback(host) && authorize === undefined) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      `Listening on ${host} lets other machines reach the gateway, so it needs authorization: give a bearer token (--token-env) or OAuth resource-server settings, or listen on 127.0.0.1.`,
    );
  }
  const guard: HttpGuardOptions = {
    allowedHosts: [...new Set(["127.0.0.1", "localhost", "[::1]", host, ...(options.allowedHosts ?? [])])],
    allowedOrigins: options.allowedOrigins,
    authorize,
  };
  const sessions = new Map<string, HttpSession>();
  let resourceMetadataUrl: string | undefined;
  const prefix = options.sessionIdPrefix;
  if (prefix !== undefined && !/^[A-Za-z0-9_]{1,32}$/.test(prefix)) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      `sessionIdPrefix ${JSON.stringify(prefix)} is not allowed: use 1-32 of A-Z, a-z, 0-9 and "_" (it starts every Mcp-Session-Id).`,
    );
  }
  const newSessionId = prefix === undefined ? () => randomUUID() : () => `${prefix}-${randomUUID()}`;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://gateway");
    if (oauth !== undefined && url.pathname.startsWith(PROTECTED_RESOURCE_PATH)) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(oauth.metadata));
      return;
    }
    if (url.pathname !== path) {
      throw new GatewayError("SESSION_UNKNOWN", `Nothing is served at ${url.pathname}; MCP is at ${path}.`);
    }
    await guardRequest(request, guard);
    const sessionId = header(request, "mcp-session-id");
    const body = request.method === "POST" ? await readJson(request, maxBodyBytes) : undefined;
    if (sessionId === undefined && request.method === "POST") {
      const web = toWebRequest(request, response);
      if (!(await isLegacyRequest(web, body, { maxRequestBodySize: maxBodyBytes }))) {
        if (!isJsonContentType(header(request, "content-type") ?? null)) {
          throw new GatewayError(
            "UNSUPPORTED_MEDIA_TYPE",
            "A 2026-07-28 request must be sent as Content-Type: application/json.",
          );
        }
        await sendWebResponse(response, await gateway.serveStateless(web, body));
        return;
      }
    }
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (session === undefined) {
        throw new GatewayError(
          "SESSION_UNKNOWN",
          `Session "${sessionId}" is not known here (expired, closed, or opened on another gateway): initialize again.`,
        );
      }
      await session.transport.handleRequest(request, response, body);
      return;
    }
    if (request.method !== "POST" || !isInitializeRequest(body)) {
      throw new GatewayError(
        "BAD_REQUEST",
        "No Mcp-Session-Id header: the first request of a session must be an initialize POST.",
      );
    }
    const session: HttpSession = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: newSessionId,
        onsessioninitialized: (id) => {
          sessions.set(id, session);
          options.logger?.info?.(`gateway: HTTP session ${id} opened`);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      }),
    };
    session.transport.onclose = () => {
      if (session.transport.sessionId !== undefined) sessions.delete(session.transport.sessionId);
    };
    session.connection = await gateway.connect(session.transport);
    await session.transport.handleRequest(request, response, body);
  };

  const server: HttpServer = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      refuse(response, error, { logger: options.logger, resourceMetadataUrl });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  if (oauth !== undefined)
    resourceMetadataUrl = `${new URL(String(oauth.metadata.resource)).origin}${PROTECTED_RESOURCE_PATH}`;
  return {
    url: `http://${shownHost}:${port}${path}`,
    port,
    close: async () => {
      await Promise.all(
        [...sessions.values()].map(
          (session) => session.connection?.close().catch(() => undefined) ?? Promise.resolve(),
        ),
      );
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as JSON; a body past the limit or not JSON is a GatewayError, and reading stops at the limit. */
async function readJson(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch (error) {
    throw new GatewayError("BAD_REQUEST", `The request body is not JSON (${(error as Error).message}).`, {
      cause: error,
    });
  }
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError(
    "PAYLOAD_TOO_LARGE",
    `The request body is larger than the gateway's limit of ${maxBytes} bytes.`,
  );
}

/** A refused request: the HTTP status, and a JSON-RPC error body naming the code and what to do. */
function refuse(
  response: ServerResponse,
  error: unknown,
  { logger, resourceMetadataUrl }: { logger: Logger | undefined; resourceMetadataUrl: string | undefined },
): void {
  const known = GatewayError.isInstance(error) ? error : undefined;
  if (known === undefined) logger?.error?.("gateway: an HTTP request failed", { error });
  if (response.headersSent) {
    response.end();
    return;
  }
  const status = known === undefined ? 500 : (STATUS[known.code] ?? 400);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (known?.code === "UNAUTHORIZED") {
    headers["www-authenticate"] =
      resourceMetadataUrl === undefined
        ? 'Bearer realm="mcp-gateway"'
        : `Bearer error="invalid_token", resource_metadata="${resourceMetadataUrl}"`;
  }
  response.writeHead(status, headers);
  response.end(
    JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: status === 500 ? -32603 : known?.code === "BAD_REQUEST" ? -32600 : -32000,
        message: known?.message ?? "The gateway failed to handle the request; see its log.",
        data: { code: known?.code ?? "INTERNAL" },
      },
    }),
  );
  // Stop reading a body we refused (an oversized upload) so the socket is not kept busy.
  if (known?.code === "PAYLOAD_TOO_LARGE") response.once("finish", () => response.req.destroy());
}
