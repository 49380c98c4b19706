import { HttpTransportError, type HttpTransportKind } from "./errors.js";
import { addHeaderSecrets, isSensitiveHeader } from "./redact.js";

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  fetch: FetchLike;
  transport: HttpTransportKind;
  /** Display form of the endpoint, for error messages. */
  url: string;
  maxMessageBytes: number;
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
 * Wraps fetch for the SDK transports:
 *
 * - Each request gets its own AbortSignal. The SDK passes one long-lived signal to every fetch,
 *   and undici's Request adds an abort listener to it that lives until the Request is garbage
 *   collected, so listeners pile up (MaxListenersExceededWarning past undici's limit of 1500).
 *   Here the shared signal gets one listener per transport, which aborts the in-flight requests.
 * - Bodies larger than `maxMessageBytes` are refused: by Content-Length before reading (an
 *   unencoded body with one is then returned as it is), and otherwise by counting while
 *   streaming (per event for `text/event-stream`, per body for the rest).
 * - Credential header values are remembered as secrets to redact.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();
  let lastNetworkError: unknown;

  function linkToShared(shared: AbortSignal, own: AbortController): () => void {
    let controllers = inFlight.get(shared);
    if (controllers === undefined) {
      const set = new Set<AbortController>();
      controllers = set;
      inFlight.set(shared, set);
      shared.addEventListener(
        "abort",
        () => {
          for (const controller of set) controller.abort(shared.reason);
          set.clear();
        },
        { once: true },
      );
    }
    controllers.add(own);
    const set = controllers;
    return () => set.delete(own);
  }

  const guarded: FetchLike = async (input, init) => {
    rememberHeaderSecrets(init?.headers, options.secrets);
    const own = new AbortController();
    const shared = init?.signal ?? undefined;
    let release = (): void => undefined;
    if (shared?.aborted === true) own.abort(shared.reason);
    else if (shared !== undefined) release = linkToShared(shared, own);

    let response: Response;
    try {
      response = await options.fetch(input, { ...init, signal: own.signal });
    } catch (error) {
      release();
      if (!own.signal.aborted) lastNetworkError = error;
      throw error;
    }
    const requestBody = typeof init?.body === "string" ? init.body : undefined;
    return limitResponse(response, { ...options, requestBody }, release);
  };

  return {
    fetch: guarded,
    get lastNetworkError() {
      return lastNetworkError;
    },
  };
}

function rememberHeaderSecrets(headers: ConstructorParameters<typeof Headers>[0], secrets: Set<string>): void {
  if (headers === undefined) return;
  for (const [name, value] of new Headers(headers)) {
    if (isSensitiveHeader(name)) addHeaderSecrets(secrets, name, value);
  }
}

interface LimitContext extends GuardedFetchOptions {
  requestBody: string | undefined;
}

function limitResponse(response: Response, context: LimitContext, release: () => void): Response {
  const body = response.body;
  // Redirects are left to the SDK untouched (it inspects and cancels them).
  if (body === null || (response.status >= 300 && response.status < 400)) {
    release();
    return response;
  }
  const isEventStream = (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
  const limit = context.maxMessageBytes;
  const tooLarge = (size: string): HttpTransportError =>
    new HttpTransportError(
      "MESSAGE_TOO_LARGE",
      `${context.transport === "sse" ? "SSE" : "Streamable HTTP"} response from ${context.url} was refused: ${size} exceeds maxMessageBytes (${limit} bytes). Raise maxMessageBytes if such messages are expected.`,
      { transport: context.transport, url: context.url, status: response.status },
    );

  const declared = declaredLength(response.headers);
  if (!isEventStream && declared !== undefined) {
    if (declared > limit) {
      release();
      void body.cancel().catch(() => undefined);
      throw tooLarge(`its Content-Length of ${declared} bytes`);
    }
    // HTTP framing makes an unencoded body exactly Content-Length bytes long, so it is within the
    // limit without counting; wrapping every response in a counting stream cost ~90 µs per call.
    // The request is unlinked from the shared signal now: what is left to read is bounded.
    if (isIdentityEncoded(response.headers)) {
      release();
      return response;
    }
  }

  const counter = isEventStream ? new EventSizeCounter() : undefined;
  let total = 0;
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
      const bytes = chunk.value;
      const exceeded = counter === undefined ? (total += bytes.byteLength) > limit : counter.add(bytes) > limit;
      if (exceeded) {
        const error = tooLarge(counter === undefined ? "the body" : "a server-sent event");
        release();
        if (counter !== undefined) context.onOversizedEvent(error, context.requestBody);
        controller.error(error);
        void reader.cancel(error).catch(() => undefined);
        return;
      }
      controller.enqueue(bytes);
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The Content-Length as a number, or undefined when it is absent or not a plain byte count. */
function declaredLength(headers: Headers): number | undefined {
  const value = headers.get("content-length");
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/** With a Content-Encoding, Content-Length counts compressed bytes and fetch hands out more. */
function isIdentityEncoded(headers: Headers): boolean {
  const encoding = headers.get("content-encoding");
  return encoding === null || encoding.trim() === "" || encoding.trim().toLowerCase() === "identity";
}

const LF = 0x0a;
const CR = 0x0d;

/** Counts the bytes of the current server-sent event; an empty line ends an event. */
class EventSizeCounter {
  private eventBytes = 0;
  private lineBytes = 0;
  private lastWasCr = false;
  private largest = 0;

  /** Feeds a chunk; returns the size of the largest event seen in it. */
  add(bytes: Uint8Array): number {
    this.largest = 0;
    for (const byte of bytes) {
      if (byte === LF && this.lastWasCr) {
        this.lastWasCr = false;
        continue;
      }
      this.lastWasCr = byte === CR;
      if (byte === LF || byte === CR) {
        if (this.lineBytes === 0) {
          this.eventBytes = 0;
        } else {
          this.lineBytes = 0;
          this.eventBytes += 1;
        }
        continue;
      }
      this.lineBytes += 1;
      this.eventBytes += 1;
      if (this.eventBytes > this.largest) this.largest = this.eventBytes;
    }
    return this.largest;
  }
}
