import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createV2Server, type V2ServerOptions } from "../servers/v2-server.mjs";

export type McpHttpHandler = ReturnType<typeof createMcpHandler>;

/** Absolute path of the v2 SDK server script (stdio). */
export const V2_SERVER_PATH: string = fileURLToPath(new URL("../servers/v2-server.mjs", import.meta.url));

export interface V2ServerSetup extends V2ServerOptions {
  /** Refuse the 2025 era (a modern-only server); default: serve both. */
  modernOnly?: boolean;
}

/** How to launch the v2 server over stdio (spread it into a stdio config with a name). */
export function v2StdioServerConfig(setup: V2ServerSetup = {}): { command: string; args: string[] } {
  const args = [V2_SERVER_PATH];
  if (setup.modernOnly === true) args.push("--modern-only");
  if (setup.toolsListTtlMs !== undefined) args.push(`--tools-list-ttl-ms=${setup.toolsListTtlMs}`);
  return { command: process.execPath, args };
}

export interface V2HttpServer {
  /** The streamable HTTP endpoint on 127.0.0.1. */
  readonly url: string;
  /** The JSON-RPC method of every request the server got, in order (notifications too). */
  readonly methods: string[];
  /**
   * Serves one more tool `name` (answering "<name>: ok") and tells the open `subscriptions/listen`
   * streams; with `announce: false` it tells nobody, as when the change happened while no stream was open.
   */
  addTool(name: string, options?: { announce?: boolean }): void;
  /** Stops serving a tool added with `addTool` and tells the open `subscriptions/listen` streams. */
  removeTool(name: string): void;
  /**
   * Ends every open `subscriptions/listen` stream the way a restarting server does: closes the
   * SDK handler's modern leg (its `close()`) and serves later requests from a fresh handler.
   */
  endListenStreams(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The v2 server in this process, over streamable HTTP on a free 127.0.0.1 port: the SDK's
 * fetch-shaped handler behind a small node:http bridge. Dual-era unless `modernOnly`.
 */
export async function startV2HttpServer(setup: V2ServerSetup = {}): Promise<V2HttpServer> {
  const extraTools = [...(setup.extraTools ?? [])];
  const newHandler = (): McpHttpHandler => createV2HttpHandler({ ...setup, extraTools });
  let handler = newHandler();
  const methods: string[] = [];
  const server = createServer((request, response) => {
    void bridge(handler.fetch, request, response, methods);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    methods,
    addTool(name, options = {}) {
      extraTools.push(name);
      if (options.announce !== false) handler.notify.toolsChanged();
    },
    removeTool(name) {
      const index = extraTools.indexOf(name);
      if (index < 0) return;
      extraTools.splice(index, 1);
      handler.notify.toolsChanged();
    },
    async endListenStreams() {
      const ending = handler;
      handler = newHandler();
      await ending.close();
    },
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One node:http exchange through a fetch-shaped handler. */
export async function bridge(
  fetch: (request: Request) => Promise<Response>,
  request: IncomingMessage,
  response: ServerResponse,
  methods: string[],
): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    recordMethods(body, methods);
    const aborted = new AbortController();
    response.on("close", () => aborted.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const answer = await fetch(
      new Request(`http://127.0.0.1${request.url ?? "/"}`, {
        method: request.method ?? "GET",
        headers,
        body: request.method === "POST" ? body : undefined,
        signal: aborted.signal,
      }),
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    if (answer.body !== null) {
      for await (const chunk of answer.body) response.write(chunk);
    }
    response.end();
  } catch {
    // The client went away mid-answer; nothing is left to tell it.
    response.destroy();
  }
}

/** The v2 server's fetch-shaped HTTP handler (dual-era unless `modernOnly`), for a host of one's own. */
export function createV2HttpHandler(setup: V2ServerSetup = {}): McpHttpHandler {
  return createMcpHandler((context) => createV2Server(setup, context.era), {
    legacy: setup.modernOnly === true ? "reject" : "stateless",
    keepAliveMs: 0,
  });
}

function recordMethods(body: Buffer, methods: string[]): void {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      const method = (message as { method?: unknown } | null)?.method;
      if (typeof method === "string") methods.push(method);
    }
  } catch {
    // Not JSON (or no body): nothing to record.
  }
}
