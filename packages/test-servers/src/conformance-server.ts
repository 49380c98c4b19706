import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createConformanceMcpServer, type ConformanceSessionState } from "./conformance-features.js";

export interface ConformanceHttpServer {
  /** The streamable HTTP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** Every session opened so far, by `Mcp-Session-Id`, with what it subscribed to. */
  readonly sessions: ReadonlyMap<string, ConformanceSessionState>;
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * The conformance test server (`createConformanceMcpServer`) in this process over streamable
 * HTTP on a free 127.0.0.1 port, one SDK 1.x transport per session, and a Host / Origin check
 * against DNS rebinding (a non-loopback name gets 403), as the suite's `dns-rebinding-protection`
 * scenario asks of a localhost server.
 */
export async function startConformanceHttpServer(): Promise<ConformanceHttpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const sessions = new Map<string, ConformanceSessionState>();
  const http = createServer((request, response) => {
    handle({ request, response, transports, sessions }).catch((error: unknown) => {
      if (!response.headersSent) respondError(response, 500, `conformance server failed: ${String(error)}`);
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions,
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  transports: Map<string, StreamableHTTPServerTransport>;
  sessions: Map<string, ConformanceSessionState>;
}

async function handle({ request, response, transports, sessions }: Exchange): Promise<void> {
  if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp") {
    return respondError(response, 404, "not found: the MCP endpoint is /mcp");
  }
  if (!isLoopback(request.headers.host) || !isLoopbackOrigin(request.headers.origin)) {
    return respondError(response, 403, "forbidden: Host and Origin must name this machine (DNS rebinding protection)");
  }
  const body = request.method === "POST" ? await readJson(request) : undefined;
  const sessionId = request.headers["mcp-session-id"];
  const existing = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
  if (existing !== undefined) return existing.handleRequest(request, response, body);
  if (sessionId !== undefined) return respondError(response, 404, "unknown session: initialize again");
  if (request.method !== "POST" || !isInitializeRequest(body)) {
    return respondError(response, 400, "no session: the first request must be initialize");
  }
  const { server, state } = createConformanceMcpServer();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      transports.set(id, transport);
      sessions.set(id, state);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
  };
  await server.connect(transport);
  await transport.handleRequest(request, response, body);
}

function isLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0];
  return LOOPBACK_HOSTS.has(name ?? "");
}

function isLoopbackOrigin(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    return isLoopback(new URL(origin).host);
  } catch {
    return false;
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    // The transport answers malformed JSON with its own JSON-RPC parse error.
    return text;
  }
}

function respondError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}
