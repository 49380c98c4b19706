import type { MCPEngineAuthProvider, MCPEngineServer } from "@mcp-tool-adapter/core";
import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { againAfterFreshLogin, reportingScopeChallenges, stepUpOf, toSdkOAuthProvider } from "./oauth.js";

/** The transport kinds the negotiation treats differently. */
export type TransportKind = "stdio" | "sse" | "streamable-http";

/**
 * The engine's default transport for a server config (fields read as the adapter's config schema
 * defines them): stdio, SSE or streamable HTTP from `@modelcontextprotocol/client` 2.x, with
 * `authProvider` (the seam's) for an HTTP server.
 */
export function createEngine2026Transport(server: MCPEngineServer, authProvider?: MCPEngineAuthProvider): Transport {
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
      const options = {
        ...(headers === undefined ? {} : { requestInit: { headers } }),
        ...(authProvider === undefined ? {} : oauthOptions(authProvider)),
      };
      const transport =
        server.transport === "sse"
          ? // eslint-disable-next-line @typescript-eslint/no-deprecated -- SSE servers are 2025-only and still deployed; the config names this transport
            new SSEClientTransport(url, options)
          : new StreamableHTTPClientTransport(url, options);
      return withResendAfterLogin(transport, authProvider);
    }
    default:
      throw new TypeError(`unknown transport "${server.transport}"`);
  }
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

/** The SDK transport's OAuth options for the seam's provider (and its step-up half, when it has one). */
function oauthOptions(
  authProvider: MCPEngineAuthProvider,
): Pick<ConstructorParameters<typeof StreamableHTTPClientTransport>[1] & object, "authProvider" | "fetch"> {
  const stepUp = stepUpOf(authProvider);
  return {
    authProvider: toSdkOAuthProvider(authProvider),
    ...(stepUp === undefined ? {} : { fetch: reportingScopeChallenges((input, init) => fetch(input, init), stepUp) }),
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
