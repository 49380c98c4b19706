import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { HttpMCPServerConfig, Logger, MCPServerConfig } from "@mcp-tool-adapter/adapter";
import type { StreamableHttpTransportOptions } from "@mcp-tool-adapter/transport-http";
import { createStdioTransport, type StdioTransportOptions } from "@mcp-tool-adapter/transport-stdio";
import type * as HttpTransports from "./http-transports.js";

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
 * the adapter connects. Async because the HTTP transports are imported only once a server
 * needs one: a host of stdio servers never loads them.
 */
export async function createDefaultTransport(
  config: MCPServerConfig,
  options: DefaultTransportOptions = {},
): Promise<Transport> {
  return buildDefaultTransport(config, options);
}

/** `createDefaultTransport`, but a stdio transport comes back without a promise. */
export function buildDefaultTransport(
  config: MCPServerConfig,
  options: DefaultTransportOptions,
): Transport | Promise<Transport> {
  if (config.transport === "stdio") {
    // The config object is passed whole so stdio-only extras (e.g. inheritEnv) reach the transport.
    return createStdioTransport(config, withLogger(options.stdio, options.logger));
  }
  return buildHttpTransport(config, withLogger(options.http, options.logger));
}

let httpTransports: Promise<typeof HttpTransports> | undefined;

async function buildHttpTransport(
  config: HttpMCPServerConfig,
  options: StreamableHttpTransportOptions,
): Promise<Transport> {
  httpTransports ??= import("./http-transports.js");
  const { createHttpTransport } = await httpTransports;
  return createHttpTransport(config, options);
}

function withLogger<T extends { logger?: unknown }>(options: T | undefined, logger: Logger | undefined): T {
  if (logger === undefined || options?.logger !== undefined) return options ?? ({} as T);
  return { ...options, logger } as T;
}
