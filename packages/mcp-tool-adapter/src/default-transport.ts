import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger, MCPServerConfig } from "@mcp-tool-adapter/adapter";
import {
  createSseTransport,
  createStreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from "@mcp-tool-adapter/transport-http";
import { createStdioTransport, type StdioTransportOptions } from "@mcp-tool-adapter/transport-stdio";

/** Options for the transports `createDefaultTransport` builds, per kind. */
export interface DefaultTransportOptions {
  /** For `stdio` servers (kill grace, stderr buffer, message size, stderr callback, process family). */
  stdio?: StdioTransportOptions;
  /** For `sse` and `streamable-http` servers (fetch, auth provider, message size, SSE fallback). */
  http?: StreamableHttpTransportOptions;
  /** Used by every transport that was not given its own logger. */
  logger?: Logger;
}

/** Never below this, so tools/list pages and initialize answers fit even under a tiny maxResultBytes. */
const MIN_DERIVED_MESSAGE_BYTES = 1024 * 1024;
/** Room for the JSON-RPC envelope around a result. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The transports' `maxMessageBytes` for an adapter's `maxResultBytes`: the result plus a quarter
 * for JSON escaping (the adapter measures unescaped text) and the envelope, at least 1 MiB. A
 * result far over the limit is then dropped by the transport as it streams in, never buffered
 * whole. Limits the caller set explicitly are kept.
 */
export function withMessageLimits(
  options: DefaultTransportOptions,
  maxResultBytes: number | undefined,
): DefaultTransportOptions {
  if (maxResultBytes === undefined || !(maxResultBytes > 0) || !Number.isFinite(maxResultBytes)) return options;
  const maxMessageBytes = Math.max(MIN_DERIVED_MESSAGE_BYTES, Math.ceil(maxResultBytes * 1.25) + ENVELOPE_BYTES);
  return {
    ...options,
    stdio: { maxMessageBytes, ...options.stdio },
    http: { maxMessageBytes, ...options.http },
  };
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
