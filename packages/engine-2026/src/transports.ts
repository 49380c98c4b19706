import type { MCPEngineServer } from "@mcp-tool-adapter/core";
import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** The transport kinds the negotiation treats differently. */
export type TransportKind = "stdio" | "sse" | "streamable-http";

/**
 * The engine's default transport for a server config (fields read as the adapter's config schema
 * defines them): stdio, SSE or streamable HTTP from `@modelcontextprotocol/client` 2.x.
 */
export function createEngine2026Transport(server: MCPEngineServer): Transport {
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
      const requestInit = headers === undefined ? undefined : { headers };
      return server.transport === "sse"
        ? // eslint-disable-next-line @typescript-eslint/no-deprecated -- SSE servers are 2025-only and still deployed; the config names this transport
          new SSEClientTransport(url, requestInit === undefined ? undefined : { requestInit })
        : new StreamableHTTPClientTransport(url, requestInit === undefined ? undefined : { requestInit });
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
