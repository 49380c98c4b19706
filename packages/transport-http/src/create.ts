import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isStepUpAuthProvider } from "@mcp-tool-adapter/core";
import type { Dispatcher } from "undici";
import type { HttpServerConfig } from "./config.js";
import { HttpTransportError, type HttpTransportKind } from "./errors.js";
import { FallbackHttpTransport } from "./fallback-transport.js";
import { createGuardedFetch } from "./guarded-fetch.js";
import { HttpTransport } from "./http-transport.js";
import { checkJsonRpcMessage } from "./json-rpc-message.js";
import { LegacySseClient } from "./legacy-sse-client.js";
import type { Logger } from "./logger.js";
import { addHeaderSecrets, addUrlSecrets, displayUrl, redactSecrets } from "./redact.js";
import { StreamableHttpClient } from "./streamable-client.js";
import { bearerChallengeOf } from "./www-authenticate.js";

/** Default `maxMessageBytes`: 64 MiB, far above any sane MCP message, far below memory trouble. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface HttpTransportOptions {
  /**
   * Used for every request (POSTs and the SSE GET). Default: in Node, undici's `request` API for
   * the transport's own requests (faster than the global fetch, with the same errors) and the
   * global fetch for the rest (OAuth discovery, redirects to follow); elsewhere the global fetch.
   */
  fetch?: typeof fetch;
  /**
   * Node, without `fetch`: the undici dispatcher for the transport's own requests, e.g. a
   * `ProxyAgent`. Default: the global dispatcher if one was set (`setGlobalDispatcher`), else an
   * `EnvHttpProxyAgent` when HTTP_PROXY / HTTPS_PROXY is set, else the global Agent.
   */
  dispatcher?: Dispatcher;
  /** Node, without `fetch`: where HTTP_PROXY / HTTPS_PROXY / NO_PROXY are read (lower case first). Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** An SDK 1.x OAuth client provider: its tokens are sent, and its flow runs on a 401 (or a 403 `insufficient_scope`). */
  authProvider?: OAuthClientProvider;
  logger?: Logger;
  /** Largest response body, or server-sent event, accepted. Default 64 MiB. */
  maxMessageBytes?: number;
}

export interface StreamableHttpTransportOptions extends HttpTransportOptions {
  /** Fall back to the legacy SSE transport when the first POST is answered with a 4xx (not 401/403). */
  fallbackToSse?: boolean;
  /** Where the SSE fallback connects. Default: the config's url. */
  sseUrl?: string;
}

/** A Transport for an MCP server over Streamable HTTP, optionally falling back to SSE. */
export function createStreamableHttpTransport(
  config: HttpServerConfig,
  options: StreamableHttpTransportOptions = {},
): Transport {
  const primary = buildTransport("streamable-http", config, options);
  if (options.fallbackToSse !== true) return primary;
  const sseConfig: HttpServerConfig = { ...config, url: options.sseUrl ?? config.url };
  return new FallbackHttpTransport(primary, () => buildTransport("sse", sseConfig, options), options.logger);
}

/** A Transport for an MCP server over the legacy HTTP+SSE transport (GET event stream, POSTs). */
export function createSseTransport(config: HttpServerConfig, options: HttpTransportOptions = {}): Transport {
  return buildTransport("sse", config, options);
}

function buildTransport(
  kind: HttpTransportKind,
  config: HttpServerConfig,
  options: HttpTransportOptions,
): HttpTransport {
  const secrets = new Set<string>();
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    headers[name] = value;
    addHeaderSecrets(secrets, name, value);
  }
  const url = parseUrl(kind, config.url, secrets);
  moveUserinfoToHeader(url, headers, secrets);
  const shownUrl = displayUrl(url);

  const maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (!(maxMessageBytes > 0)) {
    throw new HttpTransportError(
      "INVALID_CONFIG",
      `maxMessageBytes must be a positive number of bytes, got ${String(maxMessageBytes)}.`,
      {
        transport: kind,
        url: shownUrl,
      },
    );
  }

  // The guard reports oversized events to the transport it serves, which is built after it.
  const served: { transport?: HttpTransport } = {};
  const guard = createGuardedFetch({
    fetch: options.fetch,
    dispatcher: options.dispatcher,
    env: options.env,
    transport: kind,
    url: shownUrl,
    maxMessageBytes,
    secrets,
    onOversizedEvent: (error, requestBody) => served.transport?.handleOversizedEvent(error, requestBody),
  });
  const fetch = reportingScopeChallenges(guard.fetch, options.authProvider);
  const inner =
    kind === "sse"
      ? new LegacySseClient({ url, headers, fetch, eventSourceFetch: guard.fetch, authProvider: options.authProvider })
      : new StreamableHttpClient({
          url,
          headers,
          fetch,
          checkMessage: checkJsonRpcMessage,
          authProvider: options.authProvider,
        });
  const transport = new HttpTransport(inner, {
    transport: kind,
    url: shownUrl,
    secrets,
    guard,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...freshLoginOf(options.authProvider),
  });
  served.transport = transport;
  return transport;
}

/**
 * Tells a step-up provider (core's StepUpAuthProvider, e.g. @mcp-tool-adapter/oauth's) which
 * scopes a `403 insufficient_scope` named, before the transport reacts to it: the SDK's auth flow
 * would otherwise refresh the same scopes and give up.
 */
function reportingScopeChallenges(fetchFn: FetchLike, provider: OAuthClientProvider | undefined): FetchLike {
  if (!isStepUpAuthProvider(provider)) return fetchFn;
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (response.status === 403) {
      const { error, scope } = bearerChallengeOf(response);
      if (error === "insufficient_scope") await provider.noteInsufficientScope(scope);
    }
    return response;
  };
}

/** A step-up provider that logged in with a human says so through `takeFreshLogin()`: the transport sends the request again. */
function freshLoginOf(provider: OAuthClientProvider | undefined): { takeFreshLogin?: () => boolean } {
  if (!isStepUpAuthProvider(provider)) return {};
  return { takeFreshLogin: () => provider.takeFreshLogin() };
}

function parseUrl(kind: HttpTransportKind, raw: string, secrets: Set<string>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Nothing of the URL is echoed: it may hold a token.
    throw new HttpTransportError(
      "INVALID_CONFIG",
      `The ${kind} server url is not a valid absolute URL. Use e.g. "https://host/mcp".`,
      { transport: kind },
    );
  }
  addUrlSecrets(secrets, url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new HttpTransportError(
      "INVALID_CONFIG",
      redactSecrets(
        `The ${kind} server url must use http: or https:, got "${url.protocol}". Use e.g. "https://host/mcp".`,
        secrets,
      ),
      { transport: kind },
    );
  }
  return url;
}

/**
 * Base64 of the text's UTF-8 bytes (RFC 7617's charset for Basic auth), with web-standard globals
 * only: this package runs in browsers, which have no Buffer. btoa alone takes Latin-1 text and
 * throws on anything beyond it, hence the bytes first.
 */
function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** fetch refuses URLs with credentials; send them as Basic auth unless an Authorization header is set. */
function moveUserinfoToHeader(url: URL, headers: Record<string, string>, secrets: Set<string>): void {
  if (url.username === "" && url.password === "") return;
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === "authorization");
  if (!hasAuthorization) {
    const basic = `Basic ${base64Utf8(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`)}`;
    headers.Authorization = basic;
    addHeaderSecrets(secrets, "Authorization", basic);
  }
  url.username = "";
  url.password = "";
}
