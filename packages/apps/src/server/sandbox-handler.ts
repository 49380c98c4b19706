import { buildAppCsp, decodeCspParam, SANDBOX_CSP_PARAM } from "../app-csp.js";
import type { AppsFetchHandler } from "./apps-handler.js";
import { sandboxProxyPage } from "./sandbox-proxy-page.js";

export interface SandboxProxyOptions {
  /**
   * The origins of the pages that host apps (e.g. "https://app.example.com"): the only ones that
   * may embed the sandbox and talk to it. The sandbox itself must be served from another origin.
   */
  readonly hostOrigins: readonly string[];
}

/**
 * Serves the sandbox proxy page (any path), with the Content-Security-Policy of the app named in
 * its `?csp=` parameter as a header, and `frame-ancestors` limited to the host origins.
 */
export function createSandboxProxyFetchHandler(options: SandboxProxyOptions): AppsFetchHandler {
  const origins = options.hostOrigins.filter((origin) => /^https?:\/\/[a-z0-9.:[\]-]+$/i.test(origin));
  if (origins.length === 0 || origins.length !== options.hostOrigins.length)
    throw new TypeError(
      `createSandboxProxyHandler needs hostOrigins, each a plain origin such as "https://app.example.com"; got ${JSON.stringify(options.hostOrigins)}`,
    );
  const page = sandboxProxyPage(origins);
  return (request) => {
    const csp = decodeCspParam(new URL(request.url).searchParams.get(SANDBOX_CSP_PARAM));
    return Promise.resolve(
      new Response(request.method === "HEAD" ? null : page, {
        status: 200,
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": `${buildAppCsp(csp)}; frame-ancestors ${origins.join(" ")}`,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        },
      }),
    );
  };
}
