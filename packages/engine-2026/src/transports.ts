import type { MCPEngineAuthProvider, MCPEngineServer } from "@mcp-tool-adapter/core";
import type { StreamableHttpTransportOptions } from "@mcp-tool-adapter/transport-http";
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type FetchLike,
  type StreamableHTTPClientTransportOptions,
  type Transport,
} from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { againAfterFreshLogin, reportingScopeChallenges, stepUpOf, toSdkOAuthProvider } from "./oauth.js";
import { StreamableHttpByEra } from "./streamable-http-by-era.js";

/** The transport kinds the negotiation treats differently. */
export type TransportKind = "stdio" | "sse" | "streamable-http";

/** What `createEngine2026Transport` takes besides the server and its auth provider. */
export interface Engine2026TransportOptions {
  /**
   * The fetch of every HTTP request the transport makes (SSE, streamable HTTP with its `auto`
   * probe, and the 2025-era client of `@mcp-tool-adapter/transport-http`); a step-up provider's
   * scope challenges are read from its responses. Default: the global `fetch` (and for the 2025-era
   * client, transport-http's own default: undici's request API in Node). Pass one for a proxy
   * agent, or an instrumented or test fetch. Not used over stdio.
   */
  fetch?: typeof fetch;
}

/**
 * The engine's default transport for a server config (fields read as the adapter's config schema
 * defines them): stdio, SSE or streamable HTTP from `@modelcontextprotocol/client` 2.x, with
 * `authProvider` (the seam's) for an HTTP server and `options.fetch` for its requests. Over
 * streamable HTTP, a connection that turns to the 2025 handshake goes on through
 * `@mcp-tool-adapter/transport-http`'s client, which links a server's request to the call whose
 * response stream carried it (see StreamableHttpByEra).
 */
export function createEngine2026Transport(
  server: MCPEngineServer,
  authProvider?: MCPEngineAuthProvider,
  options: Engine2026TransportOptions = {},
): Transport {
  switch (server.transport) {
    case "stdio":
      return new StdioClientTransport({
        command: server.command as string,
        ...(Array.isArray(server.args) ? { args: server.args as string[] } : {}),
        env: environment(server),
        ...(typeof server.cwd === "string" ? { cwd: server.cwd } : {}),
        stderr: "pipe",
      });
    case "sse":
    case "streamable-http": {
      const url = new URL(server.url as string);
      const headers = server.headers as Record<string, string> | undefined;
      const sdkOptions = {
        ...(headers === undefined ? {} : { requestInit: { headers } }),
        ...authAndFetchOptions(authProvider, options.fetch),
      };
      if (server.transport === "sse")
        return withResendAfterLogin(
          // eslint-disable-next-line @typescript-eslint/no-deprecated -- SSE servers are 2025-only and still deployed; the config names this transport
          new SSEClientTransport(url, sdkOptions),
          authProvider,
        );
      return new StreamableHttpByEra(
        withResendAfterLogin(new StreamableHTTPClientTransport(url, sdkOptions), authProvider),
        () => linkingTransport(server, authProvider, options.fetch),
      );
    }
    default:
      throw new TypeError(`unknown transport "${server.transport}"`);
  }
}

/**
 * transport-http's streamable HTTP client for a 2025-era connection, with the config's headers and
 * the seam's provider (SDK 1.x-shaped, which is what that transport takes; it runs its own OAuth
 * flow, step-up and resend after a login). Imported at the first 2025 handshake only: a program on
 * 2026-07-28 or stdio never loads it (nor undici, some 35 ms).
 */
async function linkingTransport(
  server: MCPEngineServer,
  authProvider: MCPEngineAuthProvider | undefined,
  fetchFn: typeof fetch | undefined,
): Promise<Transport> {
  const { createStreamableHttpTransport } = await import("@mcp-tool-adapter/transport-http");
  const headers = server.headers as Record<string, string> | undefined;
  const options: StreamableHttpTransportOptions = {
    ...(authProvider === undefined
      ? {}
      : { authProvider: authProvider as NonNullable<StreamableHttpTransportOptions["authProvider"]> }),
    // Without one, transport-http keeps its own default (undici's request API in Node).
    ...(fetchFn === undefined ? {} : { fetch: fetchFn }),
  };
  return createStreamableHttpTransport(
    { url: server.url as string, ...(headers === undefined ? {} : { headers }) },
    options,
  );
}

/**
 * The child's environment: `inheritEnv: true` passes all of ours, a list passes those names, and
 * otherwise the SDK's safe default set (PATH, HOME, ...); the config's `env` wins.
 */
function environment(server: MCPEngineServer): Record<string, string> {
  const inherit = server.inheritEnv;
  const base: Record<string, string> =
    inherit === true
      ? definedOnly(process.env)
      : Array.isArray(inherit)
        ? definedOnly(Object.fromEntries((inherit as string[]).map((name) => [name, process.env[name]])))
        : getDefaultEnvironment();
  return { ...base, ...(server.env as Record<string, string> | undefined) };
}

function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * The SDK transport's `authProvider` and `fetch`: the seam's provider, and the injected fetch (the
 * global one by default), wrapped to report scope challenges when the provider has a step-up half.
 */
function authAndFetchOptions(
  authProvider: MCPEngineAuthProvider | undefined,
  fetchFn: typeof fetch | undefined,
): Pick<StreamableHTTPClientTransportOptions, "authProvider" | "fetch"> {
  const stepUp = stepUpOf(authProvider);
  // The global fetch is read at each request, not now, as the SDK's own default is.
  const sdkFetch: FetchLike | undefined =
    stepUp === undefined ? fetchFn : reportingScopeChallenges(fetchFn ?? ((input, init) => fetch(input, init)), stepUp);
  return {
    ...(authProvider === undefined ? {} : { authProvider: toSdkOAuthProvider(authProvider) }),
    ...(sdkFetch === undefined ? {} : { fetch: sdkFetch }),
  };
}

/** A request refused while the provider ran a login with a human goes out again once the login stored tokens. */
function withResendAfterLogin(transport: Transport, authProvider: MCPEngineAuthProvider | undefined): Transport {
  const stepUp = stepUpOf(authProvider);
  if (stepUp === undefined) return transport;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => againAfterFreshLogin(() => send(message, options), stepUp);
  return transport;
}
