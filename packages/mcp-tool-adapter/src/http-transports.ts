import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { HttpMCPServerConfig } from "@mcp-tool-adapter/adapter";
import {
  createSseTransport,
  createStreamableHttpTransport,
  type StreamableHttpTransportOptions,
} from "@mcp-tool-adapter/transport-http";

/** The SSE or streamable-HTTP transport of an HTTP server config; imported only once one is configured. */
export function createHttpTransport(config: HttpMCPServerConfig, options: StreamableHttpTransportOptions): Transport {
  return config.transport === "sse"
    ? createSseTransport(config, options)
    : createStreamableHttpTransport(config, options);
}
