export type { HttpServerConfig } from "./config.js";
export { findHttpConfigIssues, type HttpConfigIssue } from "./config-check.js";
export {
  createSseTransport,
  createStreamableHttpTransport,
  DEFAULT_MAX_MESSAGE_BYTES,
  type HttpTransportOptions,
  type StreamableHttpTransportOptions,
} from "./create.js";
export {
  HttpTransportError,
  type HttpTransportErrorCode,
  type HttpTransportErrorOptions,
  type HttpTransportKind,
} from "./errors.js";
export { FallbackHttpTransport } from "./fallback-transport.js";
export { HttpTransport } from "./http-transport.js";
export type { Logger } from "./logger.js";
export { collectConfigSecrets, redactSecrets } from "./redact.js";
export { SseParser, type ServerSentEvent, type SseParserListeners } from "./sse-parser.js";
