import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { createServer as createHttpServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { watchProcessGroup } from "./processes.js";
import { REAL_SERVER_ENTRIES } from "./real-servers.js";

/** Which of server-everything's HTTP launchers to run. */
export type EverythingHttpMode = "sse" | "streamableHttp";

export interface EverythingHttpServer {
  readonly mode: EverythingHttpMode;
  /** The MCP endpoint on 127.0.0.1: `/sse` in sse mode, `/mcp` in streamableHttp mode. */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** The server's stdout and stderr so far (its last 16 KiB), for failure messages. */
  readonly output: string;
  /** Kills the server's process group and waits for the process to exit. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartEverythingHttpOptions {
  mode: EverythingHttpMode;
  /** How long to wait for the server to accept connections. Default 20 000 ms. */
  startTimeoutMs?: number;
  /** The node binary the server runs on. Default the one running this process. */
  node?: string;
  /** The port to listen on (e.g. the one of a server stopped before, to start it again). Default: a free one. */
  port?: number;
}

const ENDPOINT_PATHS: Record<EverythingHttpMode, string> = { sse: "/sse", streamableHttp: "/mcp" };
const OUTPUT_TAIL_CHARS = 16_384;
const STOP_GRACE_MS = 3_000;
const START_ATTEMPTS = 3;

/** A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then released). */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

// Children still running when the test process exits are killed here, so a crashed
// suite cannot leave a server behind.
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    // Negative pid: the whole group the child leads (it was spawned detached).
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/**
 * Starts the real `@modelcontextprotocol/server-everything` in HTTP mode on a free port and
 * resolves once it accepts TCP connections on 127.0.0.1. The server itself listens on every
 * interface (it takes only PORT); tests use its 127.0.0.1 URL.
 */
export async function startEverythingHttp(options: StartEverythingHttpOptions): Promise<EverythingHttpServer> {
  if (options.port !== undefined) return startOnce(options, options.port);
  let lastError: unknown;
  // The free port can be taken between our probe and the server's bind; try another then.
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    try {
      return await startOnce(options, await findFreePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function startOnce(options: StartEverythingHttpOptions, port: number): Promise<EverythingHttpServer> {
  const child = spawn(options.node ?? process.execPath, [REAL_SERVER_ENTRIES.everything, options.mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running.add(child);
  // Detached: the server leads its own process group, which leak checks then watch.
  if (child.pid !== undefined) watchProcessGroup(child.pid);
  let output = "";
  const append = (chunk: Buffer): void => {
    output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL_CHARS);
  };
  child.stdout.on("data", append);
  child.stderr.on("data", append);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      running.delete(child);
      resolve();
    });
  });

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  try {
    // Its own announcement, not only a connect: a connect also succeeds when another process (a
    // test running beside this one) took the port between our probe and this server's bind.
    const announced = (): boolean => output.includes(`on port ${port}`);
    await waitUntilListening(port, child, announced, options.startTimeoutMs ?? 20_000);
  } catch (error) {
    await stop();
    throw new Error(
      `server-everything (${options.mode}) did not start on port ${port}: ${(error as Error).message}\n${output}`,
      {
        cause: error,
      },
    );
  }

  return {
    mode: options.mode,
    url: `http://127.0.0.1:${port}${ENDPOINT_PATHS[options.mode]}`,
    port,
    pid: child.pid ?? -1,
    get output() {
      return output;
    },
    stop,
  };
}

async function waitUntilListening(
  port: number,
  child: ChildProcess,
  announced: () => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited (code ${String(child.exitCode)}, signal ${String(child.signalCode)})`);
    }
    if (announced() && (await canConnect(port))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`it did not accept connections within ${timeoutMs} ms`);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

// ---------------------------------------------------------------------------------------------
// Fault server

/** A request the fault server received, for assertions on method, path, headers and body. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/mcp?x=1`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the fault server answers one request. */
export type FaultBehavior =
  /** A status with an optional body (text, bytes as given, or JSON when an object) and headers. */
  | {
      kind: "status";
      status: number;
      body?: string | Uint8Array | Record<string, unknown>;
      headers?: Record<string, string>;
    }
  /** Read the request, then never answer (the socket stays open until the server closes). */
  | { kind: "hang" }
  /** Destroy the socket without any response. */
  | { kind: "close" }
  /**
   * Answer `status` (default 200) with chunked writes of these raw strings (no Content-Length),
   * then end the response, keep it open when `keepOpen` (e.g. a `text/event-stream`), or destroy
   * the connection once they are written when `dropAfter` (a body cut short). With
   * `intervalMs`, each chunk is written that long after the one before, so the client reads them
   * apart (written at once, they may arrive in one TCP segment).
   */
  | {
      kind: "chunks";
      contentType: string;
      chunks: string[];
      intervalMs?: number;
      status?: number;
      keepOpen?: boolean;
      dropAfter?: boolean;
      headers?: Record<string, string>;
    };

export type FaultPlan = FaultBehavior | ((request: RecordedRequest, index: number) => FaultBehavior);

export interface FaultHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in arrival order. */
  readonly requests: readonly RecordedRequest[];
  /** TCP connections currently open (a client that closed cleanly leaves none). */
  readonly openConnections: number;
  /** TCP connections accepted so far, open or closed: with keep-alive, fewer than the requests. */
  readonly acceptedConnections: number;
  /** Changes how later requests are answered. */
  setBehavior(plan: FaultPlan): void;
  /** Destroys every open connection (hanging ones too) and stops listening. */
  close(): Promise<void>;
}

/**
 * A programmable HTTP server on 127.0.0.1 for failure tests: answers with any status
 * (401, 403, 404, 405, 500...), hangs, drops the connection or streams raw SSE, and records
 * every request it receives.
 */
export async function startFaultHttpServer(
  plan: FaultPlan = { kind: "status", status: 500 },
): Promise<FaultHttpServer> {
  let current = plan;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const open = new Set<ServerResponse>();

  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const behavior = typeof current === "function" ? current(recorded, requests.length - 1) : current;
      answer(behavior, res);
    });
  });
  let acceptedConnections = 0;
  server.on("connection", (socket) => {
    acceptedConnections += 1;
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });

  function answer(behavior: FaultBehavior, res: ServerResponse): void {
    switch (behavior.kind) {
      case "status": {
        const given = behavior.body;
        const isJson = typeof given === "object" && !(given instanceof Uint8Array);
        const body = isJson ? JSON.stringify(given) : (given ?? "");
        res.writeHead(behavior.status, {
          "content-type": isJson
            ? "application/json"
            : given instanceof Uint8Array
              ? "application/octet-stream"
              : "text/plain",
          "content-length": String(Buffer.byteLength(body)),
          ...behavior.headers,
        });
        res.end(body);
        return;
      }
      case "hang":
        open.add(res);
        return;
      case "close":
        res.socket?.destroy();
        return;
      case "chunks": {
        res.writeHead(behavior.status ?? 200, {
          "content-type": behavior.contentType,
          "cache-control": "no-cache",
          ...behavior.headers,
        });
        const finish = (): void => {
          // Destroyed once the chunks reached the socket, so the client gets them before the drop.
          if (behavior.dropAfter === true) res.write("", () => res.socket?.destroy());
          else if (behavior.keepOpen === true) open.add(res);
          else res.end();
        };
        const interval = behavior.intervalMs;
        if (interval === undefined) {
          for (const chunk of behavior.chunks) res.write(chunk);
          finish();
          return;
        }
        const writeFrom = (index: number): void => {
          if (res.destroyed) return;
          if (index === behavior.chunks.length) return finish();
          res.write(behavior.chunks[index]);
          setTimeout(() => writeFrom(index + 1), interval);
        };
        writeFrom(0);
        return;
      }
    }
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    get openConnections() {
      return sockets.size;
    },
    get acceptedConnections() {
      return acceptedConnections;
    },
    setBehavior(next) {
      current = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      open.clear();
      if (!server.listening) return;
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
