// The HTTP transports (streamable HTTP, legacy SSE) and their errors, as `mcp-tool-adapter/http`: a sub-entry of its own so
// that importing the umbrella does not load it (issue 17: import time). Its types are here only, not at the root.
export {
  createSseTransport,
  createStreamableHttpTransport,
  FallbackHttpTransport,
  HttpTransport,
  HttpTransportError,
  findHttpConfigIssues,
  type HttpConfigIssue,
  type HttpServerConfig,
  type HttpTransportErrorCode,
  type HttpTransportErrorOptions,
  type HttpTransportKind,
  type HttpTransportOptions,
  type StreamableHttpTransportOptions,
} from "@mcp-tool-adapter/transport-http";
