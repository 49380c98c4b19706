import type * as NodeHttp from "node:http";
import type * as NodeHttps from "node:https";
import type * as NodeZlib from "node:zlib";
import type { Readable } from "node:stream";
import type { BodyMeter } from "./body-limit.js";
import { HttpTransportError } from "./errors.js";

/** Node's http, https and zlib modules. */
export interface NodeHttpModules {
  readonly http: typeof NodeHttp;
  readonly https: typeof NodeHttps;
  readonly zlib: typeof NodeZlib;
}

let loaded: NodeHttpModules | null | undefined;
let loading: Promise<NodeHttpModules | null> | undefined;

/**
 * Node's http modules, or null where there are none (a browser). Loaded on first use rather than
 * imported, so the package still loads where `node:http` does not exist; once loaded, returned
 * without a promise.
 */
export function nodeHttpModules(): NodeHttpModules | null | Promise<NodeHttpModules | null> {
  if (loaded !== undefined) return loaded;
  loading ??= loadModules().then((modules) => (loaded = modules));
  return loading;
}

async function loadModules(): Promise<NodeHttpModules | null> {
  if (typeof process === "undefined" || typeof process.versions.node !== "string") return null;
  try {
    const [http, https, zlib] = await Promise.all([import("node:http"), import("node:https"), import("node:zlib")]);
    return { http, https, zlib };
  } catch {
    return null;
  }
}

/** A request `sendDirect` can make: the MCP transports' own POST, GET and DELETE requests. */
export interface DirectRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array | undefined;
  /** How to count the body, from the response's status and headers; may throw to refuse it. */
  meterFor(status: number, headers: Headers): BodyMeter | undefined;
  /** The error a body over the limit fails with; whoever must hear of it is told here. */
  overLimit(meter: BodyMeter, status: number): Error;
  /** Makes `abort` run when the request's signal aborts; returns the function that unlinks it. */
  linkAbort(abort: (reason: unknown) => void): () => void;
}

/** Statuses whose response has no body, which the Response constructor insists on. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * Sends one request over node:http(s) and resolves with a fetch Response whose body is counted
 * as it streams. Compared with fetch (undici) this skips the Fetch standard's machinery and,
 * with the count done here, needs no second stream around the body: on Node 20 every web stream
 * is made transferable at construction, which costs more than the count itself.
 *
 * Failures look like fetch's: TypeError("fetch failed") with the network error as its cause
 * before the response, TypeError("terminated") in the body after it, the signal's reason on abort.
 */
export function sendDirect(node: NodeHttpModules, request: DirectRequest): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const client = request.url.protocol === "https:" ? node.https : node.http;
    const outgoing = client.request(request.url, { method: request.method, headers: request.headers });
    let failBody: ((error: unknown) => void) | undefined;
    const fail = (error: unknown): void => {
      // Like fetch: an abort rejects with the signal's reason, whatever it is.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      if (failBody === undefined) reject(error);
      else failBody(error);
    };
    const unlink = request.linkAbort((reason) => {
      outgoing.destroy();
      fail(reason);
    });
    // `on`, not `once`: a second error event with no listener would crash the host process.
    outgoing.on("error", (error) => {
      unlink();
      fail(new TypeError("fetch failed", { cause: error }));
    });
    outgoing.once("response", (incoming) => {
      const closeConnection = (): void => {
        unlink();
        outgoing.destroy();
      };
      try {
        const answer = respond(node, request, incoming, unlink, closeConnection);
        failBody = answer.fail;
        resolve(answer.response);
      } catch (error) {
        closeConnection();
        // The meter refusing the response is ours to report; anything else is a response fetch could not represent.
        reject(HttpTransportError.isInstance(error) ? error : new TypeError("fetch failed", { cause: error }));
      }
    });
    outgoing.end(request.body);
  });
}

/**
 * The Response for an incoming message: a web stream fed from it, paused while the reader is
 * behind. Once the body has ended only the abort link is undone, so the connection is reused;
 * a failed or cancelled body also closes the connection. `fail` errors the body (once).
 */
function respond(
  node: NodeHttpModules,
  request: DirectRequest,
  incoming: NodeHttp.IncomingMessage,
  unlink: () => void,
  closeConnection: () => void,
): { response: Response; fail: (error: unknown) => void } {
  const status = incoming.statusCode ?? 0;
  const headers = responseHeaders(incoming.rawHeaders);
  const init: ResponseInit = { status, statusText: incoming.statusMessage ?? "", headers };
  // An empty body is handed out as none, so nobody cancels it and the connection stays reusable.
  if (request.method === "HEAD" || NULL_BODY_STATUSES.has(status) || headers.get("content-length")?.trim() === "0") {
    incoming.resume();
    unlink();
    return { response: new Response(null, init), fail: () => undefined };
  }
  const meter = request.meterFor(status, headers);
  const source = decoded(node, incoming, headers);
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let finished = false;
  const finish = (error?: unknown): void => {
    if (finished) return;
    finished = true;
    if (error === undefined) {
      unlink();
      controller?.close();
    } else {
      closeConnection();
      controller?.error(error);
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
    pull() {
      source.resume();
    },
    cancel() {
      finished = true;
      closeConnection();
    },
  });
  source.on("data", (chunk: Buffer) => {
    if (finished) return;
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (meter?.add(bytes) === true) {
      finish(request.overLimit(meter, status));
      return;
    }
    controller?.enqueue(bytes);
    if ((controller?.desiredSize ?? 0) <= 0) source.pause();
  });
  source.once("end", () => finish());
  const terminated = (cause: unknown): void => finish(new TypeError("terminated", { cause }));
  source.on("error", terminated);
  if (source !== incoming) incoming.on("error", terminated);
  incoming.once("close", () => {
    if (!incoming.complete) terminated(new Error("the connection closed before the response body ended"));
  });
  return { response: new Response(body, init), fail: finish };
}

/** The response's headers as a Headers, in the order received; a header fetch would refuse is left out. */
function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // Not a valid header name or value for fetch: dropped, as a fetch client would not see it either.
    }
  }
  return headers;
}

/** The body as the reader should get it: decompressed when the server compressed it anyway. */
function decoded(node: NodeHttpModules, incoming: NodeHttp.IncomingMessage, headers: Headers): Readable {
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  const { zlib } = node;
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return incoming.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    case "deflate":
      return incoming.pipe(zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    case "br":
      return incoming.pipe(zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    default:
      return incoming;
  }
}
