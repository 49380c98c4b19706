import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** SDK 1.x `McpServer`s on real streamable HTTP on 127.0.0.1 (a free port), one per session. */
export interface SdkHttpUpstream {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The server of every session opened so far. */
  readonly servers: readonly McpServer[];
  close(): Promise<void>;
}

export interface SdkHttpUpstreamOptions {
  /** A fresh server for each new session (an SDK server serves one transport). */
  readonly server: () => McpServer;
  /** The Authorization header every request must carry; a request without it gets 401. */
  readonly authorization?: string;
}

export async function startSdkHttpUpstream(options: SdkHttpUpstreamOptions): Promise<SdkHttpUpstream> {
  const servers: McpServer[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: HttpServer = createServer((request, response) => {
    void (async () => {
      if (options.authorization !== undefined && request.headers.authorization !== options.authorization) {
        response.writeHead(401).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
      const body = chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown);
      const id = request.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (transport === undefined) {
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => crypto.randomUUID(),
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, created);
          },
        });
        transport = created;
        const server = options.server();
        servers.push(server);
        await server.connect(transport);
      }
      await transport.handleRequest(request, response, body);
    })().catch(() => response.headersSent || response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    servers,
    close: async () => {
      await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
