export type { StdioServerConfig } from "./config.js";
export { nodePlatform, type FileFacts, type StdioPlatform } from "./platform.js";
export { findStdioConfigIssues, type StdioConfigIssue } from "./config-check.js";
export { buildServerEnvironment } from "./environment.js";
export { StdioTransportError, type StdioTransportErrorCode, type StdioTransportErrorDetails } from "./errors.js";
export { liveServerCount } from "./host-exit-cleanup.js";
export type { Logger } from "./logger.js";
export { MESSAGE_TOO_LARGE_ERROR_CODE } from "@mcp-tool-adapter/core";
export { SERVER_TOKEN_ENV_VAR, type ProcessFamilyStrategy } from "./process-family.js";
export {
  createStdioTransport,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_STDERR_BUFFER_BYTES,
  StdioTransport,
  type ServerExit,
  type StdioTransportOptions,
} from "./stdio-transport.js";
