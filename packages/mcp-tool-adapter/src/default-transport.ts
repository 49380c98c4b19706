import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger, MCPServerConfig } from "@mcp-tool-adapter/adapter";
import { createSseTransport, createStreamableHttpTransport, type StreamableHttpTransportOptions } from "@mcp-tool-adapter/transport-http";
import { createStdioTransport, type StdioTransportOptions } from "@mcp-tool-adapter/transport-stdio";

/** Options for the transports `createDefaultTransport` builds, per kind. */
export interface DefaultTransportOptions {
  /** For `stdio` servers (kill grace, stderr buffer, message size, stderr callback). */
  stdio?: StdioTransportOptions;
  /** For `sse` and `streamable-http` servers (fetch, auth provider, message size, SSE fallback). */
  http?: StreamableHttpTransportOptions;
  /** Used by every transport that was not given its own logger. */
  logger?: Logger;
}

/**
 * Builds the transport a server config asks for: a child process for `stdio`, the legacy
 * HTTP+SSE transport for `sse`, streamable HTTP for `streamable-http`. Nothing starts until
 * the adapter connects.
 */
export function createDefaultTransport(config: MCPServerConfig, options: DefaultTransportOptions = {}): Transport {
  const { logger } = options;
  switch (config.transport) {
    case "stdio":
      // The config object is passed whole so stdio-only extras (e.g. inheritEnv) reach the transport.
      return createStdioTransport(config, withLogger(options.stdio, logger));
    case "sse":
      return createSseTransport(config, withLogger(options.http, logger));
    case "streamable-http":
      return createStreamableHttpTransport(config, withLogger(options.http, logger));
  }
}

function withLogger<T extends { logger?: unknown }>(options: T | undefined, logger: Logger | undefined): T {
  if (logger === undefined || options?.logger !== undefined) return options ?? ({} as T);
  return { ...options, logger } as T;
}
