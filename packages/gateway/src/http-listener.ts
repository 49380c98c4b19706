import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "mcp-tool-adapter";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { isJsonContentType, isLegacyRequest } from "@modelcontextprotocol/server";
import { GatewayError, type GatewayErrorCode } from "./errors.js";
import type { Gateway } from "./gateway.js";
import { checkPost } from "./http-exchange-checks.js";
import { createHttpSessionTable } from "./http-session-table.js";
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
  /**
   * How long a POST's answer may stay silent before it turns from a JSON body into an event stream,
   * and how often a quiet event stream gets a keep-alive comment, so a proxy in front does not close it.
   * Default 15000.
   */
  keepAliveMs?: number;
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
  NOT_ACCEPTABLE: 406,
  METHOD_NOT_ALLOWED: 405,
  STREAM_CONFLICT: 409,
  PROTOCOL_VERSION_UNSUPPORTED: 400,
};

/**
 * Serves a gateway over streamable HTTP in both eras on one endpoint: a request carrying the
 * 2026-07-28 `_meta` envelope is answered statelessly (`gateway.serveStateless`), and 2025-era
 * traffic gets sessions (`Mcp-Session-Id`): an `initialize` without a session opens one, every
 * later request names it (http-session-table.ts; each session's side of the transport is
 * http-session-transport.ts). The era is told apart by the v2 SDK's own classifier. Every request
 * passes the Host, Origin and authorization checks first, and a body past the limit is refused
 * before it is read whole; the body is parsed once here and its messages go to the session as parsed.
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
  const sessions = createHttpSessionTable({
    gateway,
    sessionIdPrefix: options.sessionIdPrefix,
    keepAliveMs: options.keepAliveMs,
    logger: options.logger,
  });
  let resourceMetadataUrl: string | undefined;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const pathname = pathOf(request.url ?? "/");
    if (oauth !== undefined && pathname.startsWith(PROTECTED_RESOURCE_PATH)) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(oauth.metadata));
      return;
    }
    if (pathname !== path) {
      throw new GatewayError("SESSION_UNKNOWN", `Nothing is served at ${pathname}; MCP is at ${path}.`);
    }
    const authorizing = guardRequest(request, guard);
    if (authorizing !== undefined) await authorizing;
    const sessionId = header(request, "mcp-session-id");
    const body = request.method === "POST" ? await readJson(request, maxBodyBytes) : undefined;
    if (sessionId !== undefined) {
      sessions.get(sessionId).transport.handle({ request, response }, body);
      return;
    }
    if (request.method === "POST") {
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
    if (request.method !== "POST" || !isInitializeRequest(body)) {
      throw new GatewayError(
        "BAD_REQUEST",
        "No Mcp-Session-Id header: the first request of a session must be an initialize POST.",
      );
    }
    // Refused before a session (and, with upstreamPerClient, its upstream connections) is opened for it.
    checkPost(request, body);
    const session = await sessions.open();
    session.transport.handle({ request, response }, body);
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
      await sessions.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The path of a request target (`/mcp?x=1` -> `/mcp`; an absolute-form target's path too), without building a URL per request. */
function pathOf(target: string): string {
  if (!target.startsWith("/")) return new URL(target, "http://gateway").pathname;
  const query = target.search(/[?#]/);
  return query < 0 ? target : target.slice(0, query);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as JSON; a body past the limit or not JSON is a GatewayError, and reading stops at the limit. */
async function readJson(request: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers["content-length"] ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  // Events rather than the async iterator: a small body is one chunk, read with no promise per chunk.
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        stop();
        request.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    const stop = (): void => {
      request.off("data", onData).off("end", onEnd).off("error", onError);
    };
    request.on("data", onData).once("end", onEnd).once("error", onError);
  });
  try {
    return JSON.parse(text) as unknown;
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
  if (known?.code === "METHOD_NOT_ALLOWED") headers.allow = "GET, POST, DELETE";
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
