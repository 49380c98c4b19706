import { randomBytes, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MCPAuthError } from "./errors.js";

/** What the authorization server sent back to the loopback redirect URI, checked. */
export interface AuthorizationCallback {
  readonly code: string;
}

export interface LoopbackListener {
  /** `http://127.0.0.1:<port>/callback`: the redirect URI to register and send. */
  readonly redirectUrl: string;
  /**
   * Resolves with the authorization code of the first callback whose `state` matches; rejects
   * (`AUTH_FAILED`) on a callback with another state, an error, an `iss` that is not the expected
   * issuer, or when the time is up or `signal` aborts.
   */
  waitForCode(expected: {
    state: string;
    issuer: () => { issuer?: string; issRequired: boolean };
  }): Promise<AuthorizationCallback>;
  close(): Promise<void>;
}

export interface LoopbackListenerOptions {
  /** 0 (default) for a free port. */
  port?: number;
  /** How long to wait for the user. Default 300 000 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const CALLBACK_PATH = "/callback";

/** A random `state` value: 32 bytes, base64url. */
export function randomState(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * The native-app redirect of RFC 8252: an HTTP listener on 127.0.0.1 only (never all interfaces),
 * a random port, one path. Only the first callback with the right `state` counts.
 */
export async function startLoopbackListener(options: LoopbackListenerOptions = {}): Promise<LoopbackListener> {
  const server = createServer();
  server.listen(options.port ?? 0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const redirectUrl = `http://127.0.0.1:${port}${CALLBACK_PATH}`;
  // A fast browser (or a test) can come back before waitForCode is called: hold those requests.
  type Pending = [IncomingMessage, ServerResponse];
  const early: Pending[] = [];
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (handler) handler(req, res);
    else early.push([req, res]);
  });

  return {
    redirectUrl,
    waitForCode(expected) {
      return new Promise<AuthorizationCallback>((resolve, reject) => {
        const timeoutMs = options.timeoutMs ?? 300_000;
        const fail = (message: string): void => {
          cleanup();
          reject(new MCPAuthError("AUTH_FAILED", message));
        };
        const timer = setTimeout(
          () =>
            fail(
              `No authorization arrived at ${redirectUrl} within ${timeoutMs} ms. Run the login again and finish it in the browser.`,
            ),
          timeoutMs,
        );
        const onAbort = (): void => fail("The login was cancelled before the browser came back.");
        options.signal?.addEventListener("abort", onAbort, { once: true });
        const cleanup = (): void => {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", onAbort);
          handler = undefined;
        };
        const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
          const url = new URL(req.url ?? "/", redirectUrl);
          if (req.method !== "GET" || url.pathname !== CALLBACK_PATH) {
            answer(res, 404, "Not found.");
            return;
          }
          const params = url.searchParams;
          if (!sameSecret(params.get("state"), expected.state)) {
            answer(res, 400, "This sign-in response does not belong to the login that is waiting. Nothing was done.");
            fail(
              "The authorization response's state does not match the login's (a forged or stale redirect). Nothing was stored; run the login again.",
            );
            return;
          }
          const { issuer, issRequired } = expected.issuer();
          const iss = params.get("iss");
          // RFC 9207: a simple string comparison with the issuer the metadata named, not URL equivalence.
          if ((iss !== null || issRequired) && (issuer === undefined || iss === null || iss !== issuer)) {
            answer(res, 400, "The sign-in response came from an unexpected authorization server. Nothing was done.");
            fail(
              `The authorization response names issuer ${iss === null ? "(none)" : JSON.stringify(iss)}, not the authorization server ` +
                `${issuer ?? "(unknown)"} the login started with (RFC 9207 mix-up protection). Nothing was stored.`,
            );
            return;
          }
          const error = params.get("error");
          if (error !== null) {
            const description = params.get("error_description");
            answer(res, 400, "The authorization server did not grant access. You can close this window.");
            fail(
              `The authorization server answered "${printable(error)}"${description ? `: ${printable(description)}` : ""}. ` +
                "Nothing was stored; run the login again (and approve access in the browser).",
            );
            return;
          }
          const code = params.get("code");
          if (!code) {
            answer(res, 400, "The sign-in response has no authorization code.");
            fail("The authorization response has no code. Nothing was stored; run the login again.");
            return;
          }
          answer(res, 200, "Signed in. You can close this window and return to the terminal.");
          cleanup();
          resolve({ code });
        };
        handler = onRequest;
        for (const [req, res] of early.splice(0)) if (handler === onRequest) onRequest(req, res);
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html><title>mcp-tool-adapter</title><p>${text}</p>`);
}

function sameSecret(received: string | null, expected: string): boolean {
  if (received === null) return false;
  const a = Buffer.from(received);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Issuers compare as URLs, one trailing slash aside. */
export function sameIssuer(a: string, b: string): boolean {
  const normalize = (value: string): string => {
    try {
      return new URL(value).href.replace(/\/$/, "");
    } catch {
      return value.replace(/\/$/, "");
    }
  };
  return normalize(a) === normalize(b);
}

/** Server-chosen text in a message: one line, bounded, no control characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").slice(0, 200);
}
