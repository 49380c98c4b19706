import { createHmac, timingSafeEqual } from "node:crypto";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { describeCause } from "@mcp-tool-adapter/core";

// One gateway copy passing a client's retry on to the copy that holds its waiting call, and
// relaying that copy's answer back as it comes (held-call-retries.ts decides when).

/** The header that marks an exchange one copy forwarded to another: `<expiry ms>.<HMAC of expiry and requestState>`. */
export const FORWARDED_HEADER = "mcp-gateway-forwarded";

/** How long a copy waits for the holder to accept the connection before it reports the holder gone. */
export const PEER_CONNECT_TIMEOUT_MS = 10_000;

/** How long a hop's signature is good for: a forwarded request reaches its holder in far less. */
const HOP_LIFETIME_MS = 60_000;

/**
 * Headers of one hop only (RFC 9110 section 7.6.1), and those the relay sets itself: `host` is the
 * holder's (the authority of its peer URL), the length is the forwarded body's, and the hop mark is
 * this copy's own, never one a client sent.
 */
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "content-length",
  "expect",
  FORWARDED_HEADER,
]);

/** A client's retry to pass on: its headers and abort signal, the JSON body to send, and where. */
export interface RetryToForward {
  /** The holder copy's MCP endpoint (its peer URL, from the sealed state). */
  readonly holderUrl: string;
  /** The client's request as it came (its headers go on; its signal ends the forwarded exchange). */
  readonly request: Request;
  /** The JSON-RPC request to send (the client's, with this copy's trace context in `_meta` when traced). */
  readonly body: unknown;
  /** The requestState the hop signature covers. */
  readonly state: string;
}

/** What the relay makes of a forwarded exchange: the holder's answer, or why there is none. */
export type RelayOutcome =
  | { readonly kind: "answered"; readonly response: Response }
  /** The holder never answered: unreachable, refused, too slow to accept, or gone before its answer began. */
  | { readonly kind: "unreachable"; readonly cause: string };

/** A relayed event stream the holder broke off before its end: why, and whether the answer to the request went through. */
export interface CutOff {
  readonly cause: string;
  /** True when a complete event carrying a JSON-RPC response was relayed: the exchange is answered. */
  readonly responded: boolean;
}

/** What follows the events relayed before a cut-off: more events (bytes, or a stream of them), or nothing. */
export type CutOffRest = ReadableStream<Uint8Array> | string | undefined;

export interface PeerRelay {
  /**
   * Sends the retry to the holder and resolves with its answer as it begins (an event stream is
   * relayed event by event; a JSON answer whole). `cutOff` gives what follows a relayed stream
   * that ends before its end (the holder died while answering), so the client still gets an answer.
   */
  forward(retry: RetryToForward, cutOff: (cut: CutOff) => Promise<CutOffRest>): Promise<RelayOutcome>;
  /** The hop mark on `request`: "none", "valid" (another copy forwarded it), or "forged" (not signed with the shared key, or expired). */
  hopOf(request: Request, state: string): "none" | "valid" | "forged";
  /** Ends the forwarded exchanges in flight (their clients get the cut-off answer) and the kept connections. */
  close(): void;
}

export function createPeerRelay(options: {
  /** The key hops are signed with: derived from the secret every copy shares. */
  readonly hopKey: Buffer;
  readonly connectTimeoutMs?: number | undefined;
  readonly now?: () => number;
}): PeerRelay {
  const { hopKey } = options;
  const now = options.now ?? Date.now;
  const connectTimeoutMs = options.connectTimeoutMs ?? PEER_CONNECT_TIMEOUT_MS;
  // Kept-alive connections to the other copies: a retry forwarded while another is answered reuses one.
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const inFlight = new Set<AbortController>();
  const sign = (expiry: number, state: string): string =>
    createHmac("sha256", hopKey)
      .update(`${String(expiry)}.${state}`)
      .digest("base64url");

  return {
    forward(retry, cutOff) {
      const target = new URL(retry.holderUrl);
      const secure = target.protocol === "https:";
      const stop = new AbortController();
      inFlight.add(stop);
      const clientGone = (): void => {
        stop.abort();
      };
      retry.request.signal.addEventListener("abort", clientGone, { once: true });
      const done = (): void => {
        inFlight.delete(stop);
        retry.request.signal.removeEventListener("abort", clientGone);
      };
      const expiry = now() + HOP_LIFETIME_MS;
      const headers: Record<string, string> = {};
      retry.request.headers.forEach((value, name) => {
        if (!NOT_FORWARDED.has(name)) headers[name] = value;
      });
      const body = JSON.stringify(retry.body);
      headers["content-type"] = "application/json";
      headers["content-length"] = String(Buffer.byteLength(body));
      headers[FORWARDED_HEADER] = `${String(expiry)}.${sign(expiry, retry.state)}`;
      return new Promise<RelayOutcome>((resolve) => {
        let connectTimer: NodeJS.Timeout | undefined;
        const unreachable = (cause: string): void => {
          clearTimeout(connectTimer);
          done();
          resolve({ kind: "unreachable", cause });
        };
        const outgoing = (secure ? httpsRequest : httpRequest)(target, {
          method: "POST",
          headers,
          agent: secure ? agents.https : agents.http,
          signal: stop.signal,
        });
        outgoing.on("socket", (socket) => {
          if (!socket.connecting) return;
          connectTimer = setTimeout(() => {
            outgoing.destroy(new Error(`it did not accept a connection within ${String(connectTimeoutMs)} ms`));
          }, connectTimeoutMs);
          connectTimer.unref();
          socket.once("connect", () => clearTimeout(connectTimer));
        });
        outgoing.on("error", (error) => {
          unreachable(stop.signal.aborted ? "the client went away" : describeCause(error));
        });
        outgoing.once("response", (incoming) => {
          clearTimeout(connectTimer);
          const responseHeaders = relayedHeaders(incoming);
          if (incoming.headers["content-type"]?.includes("text/event-stream") === true) {
            const stream = relayEventStream(incoming, cutOff, done);
            resolve({
              kind: "answered",
              response: new Response(stream, { status: incoming.statusCode, headers: responseHeaders }),
            });
            return;
          }
          // A JSON answer is one message: read whole, so one cut off in the middle is reported, not half sent.
          readWhole(incoming).then(
            (text) => {
              done();
              resolve({
                kind: "answered",
                response: new Response(text, { status: incoming.statusCode, headers: responseHeaders }),
              });
            },
            (error: unknown) => {
              unreachable(`its answer was cut off (${describeCause(error)})`);
            },
          );
        });
        outgoing.end(body);
      });
    },
    hopOf(request, state) {
      const mark = request.headers.get(FORWARDED_HEADER);
      if (mark === null) return "none";
      const dot = mark.indexOf(".");
      const expiry = Number(mark.slice(0, dot));
      if (dot < 1 || !Number.isSafeInteger(expiry) || expiry < now()) return "forged";
      const presented = Buffer.from(mark.slice(dot + 1), "base64url");
      const expected = Buffer.from(sign(expiry, state), "base64url");
      return presented.length === expected.length && timingSafeEqual(presented, expected) ? "valid" : "forged";
    },
    close() {
      for (const stop of inFlight) stop.abort();
      inFlight.clear();
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function relayedHeaders(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/**
 * The holder's event stream, passed on event by event: only whole events, so that whatever follows a
 * cut-off never lands inside a half-sent one. A stream that breaks before its end (the holder died,
 * or its connection was reset) goes on with what `cutOff` makes of it, knowing whether a response
 * went through (then there is nothing to add: the client has its answer).
 */
function relayEventStream(
  incoming: IncomingMessage,
  cutOff: (cut: CutOff) => Promise<CutOffRest>,
  done: () => void,
): ReadableStream<Uint8Array> {
  const chunks = incoming[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let pending = "";
  let responded = false;
  let rest: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    // Each pull enqueues something or ends the stream: a pull that returned with neither would
    // never be called again while the client's read waits (the stream asks for more only when it
    // was read or fed), so a part of an event, or a rerun's stream taken up after a cut-off, loops.
    async pull(controller) {
      for (;;) {
        if (rest !== undefined) {
          const next = await rest.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
          return;
        }
        let cause: string | undefined;
        try {
          const next = await chunks.next();
          if (!next.done) {
            pending += decoder.decode(next.value, { stream: true });
            const whole = wholeEvents(pending);
            if (whole.length === 0) continue;
            pending = pending.slice(whole.length);
            responded ||= carriesResponse(whole);
            controller.enqueue(encoder.encode(whole));
            return;
          }
          if (!incoming.complete) cause = "its connection ended before its answer did";
        } catch (error) {
          cause = describeCause(error);
        }
        done();
        if (cause === undefined) {
          if (pending !== "") controller.enqueue(encoder.encode(pending));
          controller.close();
          return;
        }
        const more = await cutOff({ cause, responded });
        if (more instanceof ReadableStream) {
          rest = more.getReader();
          continue;
        }
        if (typeof more === "string") controller.enqueue(encoder.encode(more));
        controller.close();
        return;
      }
    },
    async cancel(reason) {
      done();
      incoming.destroy();
      await rest?.cancel(reason);
    },
  });
}

/** The complete events at the start of `text` (each ends with a blank line), as one string. */
function wholeEvents(text: string): string {
  const lf = text.lastIndexOf("\n\n");
  const crlf = text.lastIndexOf("\r\n\r\n");
  const end = Math.max(lf < 0 ? -1 : lf + 2, crlf < 0 ? -1 : crlf + 4);
  return end < 0 ? "" : text.slice(0, end);
}

/** Whether one of these whole events carries a JSON-RPC response (a result or an error), not only notifications. */
function carriesResponse(events: string): boolean {
  for (const line of events.split(/\r\n|\r|\n/)) {
    if (!line.startsWith("data:")) continue;
    try {
      const message: unknown = JSON.parse(line.slice(5));
      if (typeof message === "object" && message !== null && ("result" in message || "error" in message)) return true;
    } catch {
      // a data line that is not one JSON message: not a response this relay can recognise
    }
  }
  return false;
}

function readWhole(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.once("end", () => {
      if (incoming.complete) resolve(Buffer.concat(chunks).toString("utf8"));
      else reject(new Error("the connection ended before the answer did"));
    });
    incoming.once("error", reject);
    incoming.once("aborted", () => {
      reject(new Error("the connection was reset"));
    });
  });
}
