import { once } from "node:events";
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";

/** One request the proxy carried: a CONNECT tunnel, or a request in absolute form it forwarded. */
export interface ProxiedRequest {
  readonly kind: "connect" | "forward";
  /** CONNECT: `host:port`; forward: the absolute URL asked for. */
  readonly target: string;
  /** CONNECT, or the forwarded request's method. */
  readonly method: string;
  /** The Proxy-Authorization header the client sent, if any. */
  readonly proxyAuthorization: string | undefined;
}

export interface HttpProxyServer {
  /** `http://127.0.0.1:<port>`, the form HTTP_PROXY / HTTPS_PROXY and undici's ProxyAgent take. */
  readonly url: string;
  readonly port: number;
  /** Everything proxied so far, in arrival order. */
  readonly proxied: readonly ProxiedRequest[];
  /** Destroys every tunnel and forwarded connection, and stops listening. */
  close(): Promise<void>;
}

/** Only loopback targets: the tests must never reach out of the machine through the proxy. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * A forward proxy on 127.0.0.1, as a corporate proxy behaves: CONNECT opens a TCP tunnel (how
 * clients send https, and undici's ProxyAgent everything by default), and a request in absolute
 * form (`GET http://host/path`) is forwarded (plain http without tunnelling). It records what it
 * carried; a target off loopback is refused with 403, one that refuses the connection gets 502.
 */
export async function startHttpProxy(): Promise<HttpProxyServer> {
  const proxied: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };

  const server = createHttpServer((request, response) => {
    let target: URL;
    try {
      target = new URL(request.url ?? "");
    } catch {
      response.writeHead(400, { "content-type": "text/plain" }).end("a proxy request must use an absolute URL");
      return;
    }
    if (target.protocol !== "http:" || !LOOPBACK_HOSTS.has(target.hostname)) {
      response.writeHead(403, { "content-type": "text/plain" }).end("this test proxy only forwards http to loopback");
      return;
    }
    proxied.push({
      kind: "forward",
      target: target.href,
      method: request.method ?? "",
      proxyAuthorization: proxyAuthorizationOf(request),
    });
    const headers = { ...request.headers };
    delete headers["proxy-authorization"];
    delete headers["proxy-connection"];
    const upstream = httpRequest(target, { method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(response);
    });
    upstream.on("socket", track);
    upstream.on("error", () => {
      if (!response.headersSent)
        response.writeHead(502, { "content-type": "text/plain" }).end("the target refused the connection");
      else response.destroy();
    });
    request.pipe(upstream);
  });

  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) => {
    track(client);
    const target = request.url ?? "";
    const separator = target.lastIndexOf(":");
    const host = target.slice(0, separator);
    const port = Number(target.slice(separator + 1));
    if (!LOOPBACK_HOSTS.has(host) || !Number.isInteger(port)) {
      client.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    proxied.push({ kind: "connect", target, method: "CONNECT", proxyAuthorization: proxyAuthorizationOf(request) });
    const upstream = connect(port, host.replace(/^\[|\]$/g, ""));
    track(upstream);
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (client.writable && upstream.bytesRead === 0)
        client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
      else client.destroy();
    });
    client.on("error", () => upstream.destroy());
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  server.on("connection", track);

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    proxied,
    async close() {
      for (const socket of sockets) socket.destroy();
      if (!server.listening) return;
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function proxyAuthorizationOf(request: IncomingMessage): string | undefined {
  const value = request.headers["proxy-authorization"];
  return Array.isArray(value) ? value.join(", ") : value;
}
