import { timingSafeEqual, createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { GatewayError } from "./errors.js";

/** Hosts that only this machine reaches: binding one of them needs no authorization. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host) || host.startsWith("127.");
}

export interface HttpGuardOptions {
  /** Host header names (without port) requests may carry. Default: the loopback names and the bound host. */
  allowedHosts: readonly string[];
  /** Origins browsers may send requests from. Default: http(s) on localhost / 127.0.0.1 / [::1], any port. */
  allowedOrigins?: readonly string[] | undefined;
  /** Checks the Authorization header; undefined: no authorization (loopback only). */
  authorize?: ((request: IncomingMessage) => Promise<void>) | undefined;
}

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * The checks before a request reaches MCP: Host and Origin against DNS rebinding (a page on another
 * site that resolves its name to 127.0.0.1 sends its own Host and Origin), then authorization.
 * Throws a GatewayError naming what was refused, at once for Host and Origin. Without an
 * `authorize` check nothing is left to wait for, so it returns undefined rather than a promise
 * (a request is then read in the turn it arrived in).
 */
export function guardRequest(request: IncomingMessage, options: HttpGuardOptions): Promise<void> | undefined {
  const host = hostName(request.headers.host);
  if (host === undefined || !options.allowedHosts.includes(host)) {
    throw new GatewayError(
      "FORBIDDEN_HOST",
      `Host "${request.headers.host ?? ""}" is not one this gateway serves (allowed: ${options.allowedHosts.join(", ")}); add it with --allowed-host when a proxy or a name in front of the gateway uses it.`,
    );
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== "null") {
    const allowed =
      options.allowedOrigins === undefined ? LOCAL_ORIGIN.test(origin) : options.allowedOrigins.includes(origin);
    if (!allowed) {
      throw new GatewayError(
        "FORBIDDEN_ORIGIN",
        `Origin "${origin}" may not call this gateway; allow it with --allowed-origin if a web page there should.`,
      );
    }
  } else if (origin === "null") {
    throw new GatewayError("FORBIDDEN_ORIGIN", 'Origin "null" (a sandboxed or local page) may not call this gateway.');
  }
  return options.authorize?.(request);
}

function hostName(header: string | undefined): string | undefined {
  if (header === undefined || header.length === 0) return undefined;
  if (header.startsWith("[")) {
    const end = header.indexOf("]");
    return end < 0 ? undefined : header.slice(0, end + 1);
  }
  return header.split(":")[0]?.toLowerCase();
}

/** A check of `Authorization: Bearer <token>` against one static token, in constant time. */
export function bearerTokenCheck(token: string): (request: IncomingMessage) => Promise<void> {
  if (token.length < 16) {
    throw new GatewayError(
      "GATEWAY_OPTIONS_INVALID",
      "The gateway's bearer token is shorter than 16 characters; use a long random one (e.g. `openssl rand -hex 32`).",
    );
  }
  const expected = digest(token);
  return (request) => {
    const presented = bearerToken(request);
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      return Promise.reject(
        new GatewayError(
          "UNAUTHORIZED",
          "Missing or wrong bearer token: send `Authorization: Bearer <token>` with the gateway's token.",
        ),
      );
    }
    return Promise.resolve();
  };
}

export function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}
