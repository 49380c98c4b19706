import { once } from "node:events";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request the recording proxy passed on, with the upstream's answer. */
export interface PassedRequest {
  readonly method: string;
  /** The `Mcp-Session-Id` the client sent, if any. */
  readonly sessionId: string | undefined;
  /** The request's headers as the client sent them (lower-case names). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request's body as read so far (a JSON-RPC message for a POST; empty for a GET or DELETE). */
  body: string;
  /** The upstream's status; undefined while it has not answered (or when it could not be reached: 502). */
  status: number | undefined;
}

export interface RecordingProxy {
  /** The upstream URL with the proxy's origin: `http://127.0.0.1:<port>/<upstream path>`. */
  readonly url: string;
  /** Every request passed on so far, in arrival order. */
  readonly requests: readonly PassedRequest[];
  /** Destroys open connections (streams too) and stops listening. */
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /**
   * How long to hold a request (its body read) before passing it on, in ms; `Infinity` never
   * passes it on nor answers it (a server that hangs on it). Undefined or 0: passed on at once.
   */
  hold?: (request: PassedRequest) => number | undefined;
}

/**
 * A reverse proxy on 127.0.0.1 in front of one upstream HTTP server, recording each request's
 * method, session id and the upstream's status: what a client sent on the wire (how many
 * DELETEs, with which headers), counted without touching the client's code. Streams pass through
 * as they come (event streams included); a request `options.hold` holds is passed on once read,
 * after its delay (what a slow or hung server does to that one request).
 */
export async function startRecordingProxy(
  upstream: string,
  options: RecordingProxyOptions = {},
): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const requests: PassedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const header = incoming.headers["mcp-session-id"];
    const passed: PassedRequest = {
      method: incoming.method ?? "GET",
      sessionId: typeof header === "string" ? header : undefined,
      headers: { ...incoming.headers },
      body: "",
      status: undefined,
    };
    requests.push(passed);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        passed.status = answer.statusCode;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    outgoing.on("close", () => forwarded.destroy());
    incoming.on("data", (chunk: Buffer) => {
      passed.body += chunk.toString("utf8");
    });
    if (options.hold === undefined) {
      incoming.pipe(forwarded);
      return;
    }
    incoming.once("end", () => {
      const delayMs = options.hold?.(passed) ?? 0;
      if (delayMs === Number.POSITIVE_INFINITY) return;
      setTimeout(() => forwarded.end(passed.body), delayMs);
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}${target.search}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
