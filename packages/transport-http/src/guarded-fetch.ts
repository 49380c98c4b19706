import { meterFor, tooLargeError, type BodyLimitContext, type BodyMeter } from "./body-limit.js";
import { HttpTransportError } from "./errors.js";
import type { Dispatcher } from "undici";
import type { DirectClient, DirectRequest } from "./direct-client.js";
import { createDirectClient } from "#http-client";
import { addHeaderSecrets, isSensitiveHeader } from "./redact.js";

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions extends BodyLimitContext {
  /**
   * The fetch to send with. Without one, the transports' own requests go out through undici's
   * `request` API in Node, and everything else (and everything elsewhere) through the global fetch.
   */
  fetch?: FetchLike | undefined;
  /** Node only, without `fetch`: the undici dispatcher for every request (a ProxyAgent, say). */
  dispatcher?: Dispatcher | undefined;
  /** Node only, without `fetch`: where HTTP_PROXY / HTTPS_PROXY / NO_PROXY are read. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Grows with every Authorization / Cookie / token header value sent, e.g. an authProvider's tokens. */
  secrets: Set<string>;
  /**
   * A server-sent event exceeded the limit. `requestBody` is the POST body whose response stream
   * it was, or undefined for a standalone (GET) stream.
   */
  onOversizedEvent(error: HttpTransportError, requestBody: string | undefined): void;
}

export interface GuardedFetch {
  readonly fetch: FetchLike;
  /** The last network failure (not an abort) fetch threw; the SSE library only keeps its text. */
  readonly lastNetworkError: unknown;
}

/**
 * The fetch the SDK transports are given:
 *
 * - Each request can be aborted on its own. The SDK passes one long-lived signal to every fetch,
 *   and undici's Request adds an abort listener to it that lives until the Request is garbage
 *   collected, so listeners pile up (MaxListenersExceededWarning past undici's limit of 1500).
 *   Here the shared signal gets one listener per transport, which aborts the in-flight requests.
 * - Bodies larger than `maxMessageBytes` are refused: by Content-Length before reading (an
 *   unencoded body with one is then returned as it is), and otherwise by counting while
 *   streaming (per event for `text/event-stream`, per body for the rest).
 * - Credential header values are remembered as secrets to redact.
 * - Without an injected fetch, the transports' own requests (redirects left to the SDK, a text or
 *   byte body) are sent with the direct client where there is one (Node): see DirectClient.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const inFlight = new WeakMap<AbortSignal, Set<(reason: unknown) => void>>();
  let lastNetworkError: unknown;

  /** Runs `abort` when `shared` aborts; returns the function that unlinks it again. */
  function linkToShared(shared: AbortSignal | undefined, abort: (reason: unknown) => void): () => void {
    if (shared === undefined) return () => undefined;
    let aborts = inFlight.get(shared);
    if (aborts === undefined) {
      const set = new Set<(reason: unknown) => void>();
      aborts = set;
      inFlight.set(shared, set);
      shared.addEventListener(
        "abort",
        () => {
          for (const each of [...set]) each(shared.reason);
          set.clear();
        },
        { once: true },
      );
    }
    aborts.add(abort);
    const set = aborts;
    return () => set.delete(abort);
  }

  async function viaFetch(fetch: FetchLike, input: string | URL, init: RequestInit | undefined): Promise<Response> {
    rememberHeaderSecrets(init?.headers, options.secrets);
    const own = new AbortController();
    const shared = init?.signal ?? undefined;
    let release = (): void => undefined;
    if (shared?.aborted === true) own.abort(shared.reason);
    else release = linkToShared(shared, (reason) => own.abort(reason));

    let response: Response;
    try {
      response = await fetch(input, { ...init, signal: own.signal });
    } catch (error) {
      release();
      if (!own.signal.aborted) lastNetworkError = error;
      throw error;
    }
    const requestBody = typeof init?.body === "string" ? init.body : undefined;
    return limitResponse(response, options, requestBody, release);
  }

  /** Not async: the direct client's promise is handed back with only the failure bookkeeping on it. */
  function direct(client: DirectClient, request: DirectRequestParts, init: RequestInit | undefined): Promise<Response> {
    rememberHeaderSecrets(request.headers, options.secrets);
    const shared = init?.signal ?? undefined;
    // fetch rejects with the signal's reason, whatever it is.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    if (isAborted(shared)) return Promise.reject(shared?.reason);
    const requestBody = typeof request.body === "string" ? request.body : undefined;
    return client
      .send({
        ...request,
        meterFor: (status, headers) => meterFor(status, headers, options),
        overLimit: (meter, status) => overLimit(options, meter, status, requestBody),
        linkAbort: (abort) => linkToShared(shared, abort),
      })
      .catch((error: unknown) => {
        if (!isAborted(shared) && !HttpTransportError.isInstance(error)) lastNetworkError = error;
        throw error;
      });
  }

  const client =
    options.fetch === undefined
      ? createDirectClient({
          dispatcher: options.dispatcher,
          env: options.env ?? (typeof process === "undefined" ? {} : process.env),
        })
      : undefined;

  // Not async (each path returns its own promise); a throw while reading the request becomes a rejection.
  const guarded: FetchLike = (input, init) => {
    try {
      if (options.fetch !== undefined) return viaFetch(options.fetch, input, init);
      if (client === undefined) return viaFetch(globalThis.fetch, input, init);
      const request = directRequestParts(input, init);
      return request === undefined ? viaFetch(client.fetch, input, init) : direct(client, request, init);
    } catch (error) {
      // As the async function it replaces: the failure as thrown.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    }
  };

  return {
    fetch: guarded,
    get lastNetworkError() {
      return lastNetworkError;
    },
  };
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

type HeadersInitLike = ConstructorParameters<typeof Headers>[0];

type DirectRequestParts = Pick<DirectRequest, "url" | "method" | "headers" | "body">;

/**
 * The parts of a request the direct client can make, or undefined for one it leaves to fetch: one that
 * wants redirects followed (the SDK asks for "manual" and follows them itself), a body other than
 * text or bytes, or a scheme other than http(s).
 */
function directRequestParts(input: string | URL, init: RequestInit | undefined): DirectRequestParts | undefined {
  if (init?.redirect !== "manual") return undefined;
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) return undefined;
  let url: URL;
  try {
    url = input instanceof URL ? input : new URL(input);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  return { url, method: (init.method ?? "GET").toUpperCase(), headers: headerRecord(init.headers), body };
}

/** Request headers as a plain record with lower-case names, the form undici's request takes. */
function headerRecord(headers: HeadersInitLike | undefined): Record<string, string> {
  const record: Record<string, string> = Object.create(null) as Record<string, string>;
  if (headers === undefined) return record;
  if (isPlainRecord(headers)) {
    // The transports' own requests come with a plain record: copied by hand. A Headers built from
    // it validates and sorts every name per request, which cost more than the rest of a POST.
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      const trimmed = value.trim();
      record[lower] = Object.hasOwn(record, lower) ? `${record[lower]}, ${trimmed}` : trimmed;
    }
    return record;
  }
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

function isPlainRecord(headers: HeadersInitLike): headers is Record<string, string> {
  if (headers instanceof Headers || Array.isArray(headers)) return false;
  const prototype = Object.getPrototypeOf(headers) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function rememberHeaderSecrets(headers: HeadersInitLike | undefined, secrets: Set<string>): void {
  if (headers === undefined) return;
  const remember = (value: string, name: string): void => {
    // The same values come with every request; a known one needs no second look.
    if (isSensitiveHeader(name) && !secrets.has(value.trim())) addHeaderSecrets(secrets, name, value);
  };
  if (headers instanceof Headers) headers.forEach(remember);
  else if (Array.isArray(headers)) for (const [name, value] of headers) remember(String(value), String(name));
  else for (const [name, value] of Object.entries(headers)) remember(String(value), name);
}

/** The error a body over the limit fails with; an oversized event is reported to the transport too. */
function overLimit(
  options: GuardedFetchOptions,
  meter: BodyMeter,
  status: number,
  requestBody: string | undefined,
): HttpTransportError {
  const error = tooLargeError(options, status, meter.unit === "event" ? "a server-sent event" : "the body");
  if (meter.unit === "event") options.onOversizedEvent(error, requestBody);
  return error;
}

/** A response from an injected fetch (or the global one), its body counted by a stream around it. */
function limitResponse(
  response: Response,
  options: GuardedFetchOptions,
  requestBody: string | undefined,
  release: () => void,
): Response {
  const body = response.body;
  let meter: BodyMeter | undefined;
  try {
    meter = body === null ? undefined : meterFor(response.status, response.headers, options);
  } catch (error) {
    release();
    void body?.cancel().catch(() => undefined);
    throw error;
  }
  if (body === null || meter === undefined) {
    // Nothing left to read can exceed the limit: the request no longer needs aborting with the rest.
    release();
    return response;
  }
  const counted = meter;
  const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
  const limited = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        release();
        controller.error(error);
        return;
      }
      if (chunk.done) {
        release();
        controller.close();
        return;
      }
      if (counted.add(chunk.value)) {
        const error = overLimit(options, counted, response.status, requestBody);
        release();
        controller.error(error);
        void reader.cancel(error).catch(() => undefined);
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
}
