import type { Readable } from "node:stream";
import type * as NodeZlib from "node:zlib";
import type * as Undici from "undici";
import type { Dispatcher } from "undici";
import type { DirectClient, DirectClientOptions, DirectRequest } from "./direct-client.js";
import { HttpTransportError } from "./errors.js";
import { directResponse, NodeBody } from "./node-body.js";
import { RequestAbort } from "./request-abort.js";

/** Where undici keeps the global dispatcher, shared by Node's own fetch and every npm undici. */
const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/**
 * Node's own undici 7 and later (Node 24) close a connection whose response body was cancelled;
 * its 6.x (Node 20, 22) keeps it open, so a closed event stream would linger there.
 */
const BUILT_IN_AGENT_USABLE = Number(process.versions.undici?.split(".")[0] ?? 0) >= 7;

/**
 * A module imported on first need: once loaded it is returned without a promise, so a request
 * whose modules are all loaded is sent in the same tick.
 */
function lazyModule<T>(load: () => Promise<T>): () => T | Promise<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    loading ??= load().then((module) => (loaded = module));
    return loading;
  };
}

/** node:zlib, imported with the first request. */
const zlib = lazyModule(() => import("node:zlib"));

/**
 * The npm undici, imported only when a request needs what only it has: an EnvHttpProxyAgent for
 * HTTP_PROXY / HTTPS_PROXY, or an Agent of its own where Node's is 6.x. Importing it costs some
 * 5 MB of live heap, and installs its Agent as the global dispatcher when none is set yet.
 */
const npmUndici = lazyModule(() => import("undici"));

/** `use` applied to the npm undici: at once when it is loaded, after its import otherwise. */
function withNpmUndici<T>(use: (undici: typeof Undici) => T): T | Promise<T> {
  const undici = npmUndici();
  return undici instanceof Promise ? undici.then(use) : use(undici);
}

function installedGlobal(): Dispatcher | undefined {
  return (globalThis as Record<symbol, Dispatcher | undefined>)[GLOBAL_DISPATCHER];
}

let nodeAgent: Promise<Dispatcher> | undefined;

/**
 * Node's own global Agent. Node makes it with its fetch's first request, so a `data:` URL (which
 * goes nowhere) is fetched when there is none yet.
 */
function nodeGlobalAgent(): Dispatcher | Promise<Dispatcher> {
  const installed = installedGlobal();
  if (installed !== undefined) return installed;
  nodeAgent ??= globalThis.fetch("data:,").then(async (response) => {
    await response.arrayBuffer();
    const made = installedGlobal();
    if (made === undefined) throw new Error("Node's fetch installed no global dispatcher");
    return made;
  });
  return nodeAgent;
}

/**
 * The Node client: undici's own `request` API (the engine under Node's fetch, without the Fetch
 * standard's Request/Response and web-stream layers around the connection), sent through
 *
 * 1. the `dispatcher` option when given;
 * 2. otherwise the global dispatcher when the user set one (a ProxyAgent, an EnvHttpProxyAgent,
 *    a MockAgent: anything but a plain Agent), shared with Node's fetch through
 *    `Symbol.for("undici.globalDispatcher.1")`;
 * 3. otherwise an EnvHttpProxyAgent of the npm undici when HTTP_PROXY or HTTPS_PROXY is set
 *    (NO_PROXY honoured);
 * 4. otherwise, where Node's own undici is 7 or later, the global Agent (Node's, or the npm
 *    undici's if the user imported it): nothing more is imported;
 * 5. otherwise (Node 20, 22) the global Agent if it is the npm undici's, else an Agent of the npm
 *    undici's own. Node's bundled undici 6.x keeps a connection open after a cancelled response
 *    body, so a closed event stream would linger.
 */
export function createDirectClient(options: DirectClientOptions): DirectClient {
  const proxy = proxySettings(options.env);
  /** The dispatcher chosen over the global one (1 and 3 above), or undefined to use the global. */
  const chosenDispatcher = (): Dispatcher | Promise<Dispatcher> | undefined => {
    if (options.dispatcher !== undefined) return options.dispatcher;
    const global = installedGlobal();
    if (proxy === undefined || (global !== undefined && !isPlainAgent(global))) return undefined;
    return withNpmUndici((undici) => envProxyAgent(undici, proxy));
  };
  const dispatcherNow = (): Dispatcher | Promise<Dispatcher> => {
    const chosen = chosenDispatcher();
    if (chosen !== undefined) return chosen;
    const global = installedGlobal();
    if (global !== undefined && !isPlainAgent(global)) return global;
    if (BUILT_IN_AGENT_USABLE) return nodeGlobalAgent();
    return withNpmUndici((undici) => {
      const installed = undici.getGlobalDispatcher();
      return !isPlainAgent(installed) || installed instanceof undici.Agent ? installed : ownAgent(undici);
    });
  };
  return {
    send(request) {
      const inflate = zlib();
      const dispatcher = dispatcherNow();
      if (inflate instanceof Promise || dispatcher instanceof Promise) {
        return Promise.all([inflate, dispatcher]).then(([loaded, chosen]) => send(loaded, chosen, request));
      }
      return send(inflate, dispatcher, request);
    },
    async fetch(input, init) {
      // Where Node's undici is 6.x, importing the npm undici installs its Agent as the global
      // dispatcher (when none is set), which Node's fetch then uses too: see 5 above.
      if (!BUILT_IN_AGENT_USABLE) await npmUndici();
      const chosen = await chosenDispatcher();
      if (chosen === undefined) return globalThis.fetch(input, init);
      // Node's fetch takes undici's `dispatcher` in its init (typed there after Node's own undici).
      return globalThis.fetch(input, Object.assign({ ...init }, { dispatcher: chosen }));
    },
  };
}

interface ProxySettings {
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
}

/** The proxy variables as curl and undici read them (lower case first), or undefined when no proxy is set. */
function proxySettings(env: DirectClientOptions["env"]): ProxySettings | undefined {
  const read = (name: string): string | undefined => nonEmpty(env[name]) ?? nonEmpty(env[name.toUpperCase()]);
  const httpProxy = read("http_proxy");
  // As undici's EnvHttpProxyAgent: without HTTPS_PROXY, https goes through HTTP_PROXY too.
  const httpsProxy = read("https_proxy") ?? httpProxy;
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  // Empty strings, not undefined: the agent would read process.env for a missing one.
  return { httpProxy: httpProxy ?? "", httpsProxy: httpsProxy ?? "", noProxy: read("no_proxy") ?? "" };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The default global dispatcher (Node's or undici's) is a plain Agent; anything else was set by the user. */
function isPlainAgent(dispatcher: Dispatcher): boolean {
  return (
    (Object.getPrototypeOf(dispatcher) as { constructor?: { name?: unknown } } | null)?.constructor?.name === "Agent"
  );
}

let defaultAgent: Dispatcher | undefined;

function ownAgent(undici: typeof Undici): Dispatcher {
  defaultAgent ??= new undici.Agent();
  return defaultAgent;
}

/** One agent per proxy setting, so every transport with the same settings shares its connections. */
const envProxyAgents = new Map<string, Dispatcher>();

function envProxyAgent(undici: typeof Undici, proxy: ProxySettings): Dispatcher {
  const key = `${proxy.httpProxy}\n${proxy.httpsProxy}\n${proxy.noProxy}`;
  let agent = envProxyAgents.get(key);
  if (agent === undefined) {
    agent = new undici.EnvHttpProxyAgent(proxy);
    envProxyAgents.set(key, agent);
  }
  return agent;
}

/** Statuses whose response has no body, which the Response constructor insists on. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * Sends one request and resolves with a fetch Response whose body is counted as it streams: with
 * the count done here, the body needs no second stream around it.
 */
function send(inflate: typeof NodeZlib, dispatcher: Dispatcher, request: DirectRequest): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const aborted = new RequestAbort();
    let failBody: ((error: unknown) => void) | undefined;
    const unlink = request.linkAbort((reason) => {
      if (failBody === undefined) aborted.abort(reason);
      else failBody(reason);
    });
    const { url } = request;
    dispatcher.request(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: aborted,
      },
      (error, data) => {
        if (error !== null) {
          unlink();
          // Like fetch: an abort rejects with the signal's reason, whatever it is.
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
          if (aborted.aborted) reject(aborted.reason);
          else reject(new TypeError("fetch failed", { cause: error }));
          return;
        }
        const closeConnection = (): void => {
          unlink();
          data.body.destroy();
        };
        try {
          const answer = respond(inflate, request, data, unlink, closeConnection);
          failBody = answer.fail;
          resolve(answer.response);
        } catch (failure) {
          data.body.on("error", () => undefined);
          closeConnection();
          // The meter refusing the response is ours to report; anything else is a response fetch could not represent.
          reject(HttpTransportError.isInstance(failure) ? failure : new TypeError("fetch failed", { cause: failure }));
        }
      },
    );
  });
}

/**
 * The Response for undici's answer, its body read from undici's stream as it comes (node-body.ts:
 * no web stream unless someone asks for `body`). Once the body has ended only the abort link is
 * undone, so the connection is reused; a failed or cancelled body also closes the connection.
 * `fail` errors the body (once).
 */
function respond(
  inflate: typeof NodeZlib,
  request: DirectRequest,
  data: Dispatcher.ResponseData,
  unlink: () => void,
  closeConnection: () => void,
): { response: Response; fail: (error: unknown) => void } {
  const status = data.statusCode;
  const statusText = (data as { statusText?: string }).statusText ?? "";
  const incoming = data.body;
  // An empty body is handed out as none, so nobody cancels it and the connection stays reusable.
  if (request.method === "HEAD" || NULL_BODY_STATUSES.has(status) || declaresNoBody(data.headers)) {
    incoming.on("error", () => undefined);
    incoming.resume();
    unlink();
    const empty = withResponseHeaders(data.headers, (headers) => new Response(null, { status, statusText, headers }));
    return { response: empty, fail: () => undefined };
  }
  const { response, attach } = withResponseHeaders(data.headers, (headers) =>
    directResponse({ status, statusText, headers }),
  );
  const headers = response.headers;
  const meter = request.meterFor(status, headers);
  const body = new NodeBody({
    source: decoded(inflate, incoming, headers),
    incoming,
    meter,
    overLimit: (meter) => request.overLimit(meter, status),
    onEnd: unlink,
    onBroken: closeConnection,
  });
  attach(body);
  return { response, fail: (error) => body.fail(error) };
}

type ParsedHeaders = Dispatcher.ResponseData["headers"];

/** `Content-Length: 0`, read from undici's parsed headers (lower-case names) as Headers.get would give it. */
function declaresNoBody(parsed: ParsedHeaders): boolean {
  const length = parsed["content-length"];
  return typeof length === "string" && length.trim() === "0";
}

/**
 * What `make` builds (a Response) with undici's parsed headers, each checked once, by the Response
 * itself; a header fetch would refuse is left out. Each name with one value (the usual case) goes in
 * as a record; a repeated one, or a record the Response refuses, is appended one value at a time.
 */
function withResponseHeaders<T extends Response | { readonly response: Response }>(
  parsed: ParsedHeaders,
  make: (headers: Record<string, string> | undefined) => T,
): T {
  const record = singleValued(parsed);
  if (record !== undefined) {
    try {
      return make(record);
    } catch {
      // A header fetch would refuse: made again below without it.
    }
  }
  const made = make(undefined);
  const headers = "response" in made ? made.response.headers : made.headers;
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(name, each);
      } catch {
        // Not a valid header name or value for fetch: dropped, as a fetch client would not see it either.
      }
    }
  }
  return made;
}

/** The headers as a record of one value each, or undefined when a name came more than once. */
function singleValued(parsed: ParsedHeaders): Record<string, string> | undefined {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    if (typeof value !== "string") return undefined;
    record[name] = value;
  }
  return record;
}

/** The body as the reader should get it: decompressed when the server compressed it anyway. */
function decoded(zlib: typeof NodeZlib, incoming: Readable, headers: Headers): Readable {
  const encoding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return incoming.pipe(
        zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      );
    case "deflate":
      return incoming.pipe(
        zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
      );
    case "br":
      return incoming.pipe(
        zlib.createBrotliDecompress({
          flush: zlib.constants.BROTLI_OPERATION_FLUSH,
          finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
        }),
      );
    default:
      return incoming;
  }
}
