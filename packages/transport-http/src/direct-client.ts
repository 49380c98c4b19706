import type { Dispatcher } from "undici";
import type { BodyMeter } from "./body-limit.js";

/** A request a direct client can make: the MCP transports' own POST, GET and DELETE requests. */
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

/**
 * Sends the transports' own requests without the global fetch's web-stream machinery. Failures
 * look like fetch's: TypeError("fetch failed") with the network error as its cause before the
 * response, TypeError("terminated") in the body after it, the signal's reason on abort.
 */
export interface DirectClient {
  readonly send: (request: DirectRequest) => Promise<Response>;
  /** The global fetch for every other request (OAuth discovery, redirects to follow), through the same proxy. */
  readonly fetch: (input: string | URL, init?: RequestInit) => Promise<Response>;
}

/** Where the direct client's connections go. */
export interface DirectClientOptions {
  /** Used for every request when given: a ProxyAgent, an Agent with TLS options, a MockAgent. */
  readonly dispatcher?: Dispatcher | undefined;
  /** Read once for HTTP_PROXY / HTTPS_PROXY / NO_PROXY (and their lower-case forms). */
  readonly env: Readonly<Record<string, string | undefined>>;
}
