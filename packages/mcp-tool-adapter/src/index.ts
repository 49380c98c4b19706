// The umbrella's main entry: what a user of the whole adapter reaches for, each name once, and
// at most 80 names (test/root-entry.test.ts holds both). The rest lives on the sub-entries
// (`mcp-tool-adapter/http`, `/model-tools`, `/oauth`, `/config-schema`) and in the packages
// (`@mcp-tool-adapter/adapter`, `/registry`, ...); the fields of an options type are reached
// through it (`MCPServerSetOptions["auth"]`), not exported one by one.

// The adapter: its config, what it takes and what it hands back.
export { MCPToolAdapter, type MCPToolAdapterOptions } from "./mcp-tool-adapter.js";
export type { MCPToolAdapterAuthOptions, MCPToolAdapterConfig } from "./adapter-auth.js";
export { createDefaultTransport } from "./default-transport.js";
export { findConfigIssues, validateServerConfig } from "@mcp-tool-adapter/adapter";
export {
  inferCapabilities,
  type CapabilityOverrides,
  type ToolCapability,
} from "@mcp-tool-adapter/capability-inference";
export type {
  ElicitationHandler,
  HttpMCPServerConfig,
  Logger,
  MCPCompletion,
  MCPEngine,
  MCPProgress,
  MCPPrompt,
  MCPPromptMessages,
  MCPRequestErrorKind,
  MCPRequestResult,
  MCPResource,
  MCPResourceContents,
  MCPResourceSubscription,
  MCPResourceTemplate,
  MCPServerConfig,
  MCPServerHealth,
  MCPServerLogEntry,
  MCPToolDescriptor,
  MCPToolErrorKind,
  MCPToolFilter,
  MCPToolResult,
  RegistrationReport,
  SamplingHandler,
  StdioMCPServerConfig,
  ToolCallInfo,
  ToolCallInterceptor,
} from "@mcp-tool-adapter/adapter";

// The registry the adapters register into.
export {
  ToolRegistry,
  type RegisteredTool,
  type ToolCallResult,
  type ToolDefinition,
} from "@mcp-tool-adapter/registry";

// Many servers as one set.
export { MCPServerSet } from "./server-set.js";
export type { MCPServerSetOptions } from "./server-set/options.js";
export type { ServerEntries, ServerEntry } from "./server-set/server-entry.js";
export type {
  ServerConnectResult,
  ServerFailure,
  ServerSetAdapter,
  ServerSetAdapterFactory,
  ServerSetCloseReport,
  ServerSetConnectReport,
} from "./server-set/types.js";

// Config files (`mcpServers` JSON, JSONC, YAML).
export { loadConfigFile, parseConfig } from "./config-file/config-file-api.js";
export type { MCPServersConfig } from "./config-file/load-config-file.js";

// Policy: approval before a call, and a lock file of approved tool definitions.
export { createApprovalInterceptor } from "./policy/approval-interceptor.js";
export { readToolLock, TOOL_LOCK_FILE_NAME, writeToolLock, type ToolLock } from "./policy/lock-file.js";

// The CLI, in-process.
export { runCli } from "./cli/run-cli.js";
export type { CliIO } from "./cli/io.js";

// Errors: the base of every error class of the project, then the ones a user of the umbrella catches.
// The HTTP transport's, OAuth's and model-tools' errors are on their sub-entries.
export { MCPToolAdapterError } from "@mcp-tool-adapter/core";
export {
  MCPAdapterError,
  MCPConfigError,
  MCPConnectionError,
  MCPDiscoveryError,
  MCPNotConnectedError,
  MCPServerUnavailableError,
  MCPUsageError,
  type MCPAdapterErrorCode,
} from "@mcp-tool-adapter/adapter";
export { RegistryError, type RegistryErrorCode } from "@mcp-tool-adapter/registry";
export { StdioTransportError, type StdioTransportErrorCode } from "@mcp-tool-adapter/transport-stdio";
export { MCPServerSetError, type MCPServerSetErrorCode } from "./server-set/errors.js";
export { MCPConfigFileError, type ConfigFileIssue, type MCPConfigFileErrorCode } from "./config-file/errors.js";
export { MCPToolLockError, type MCPToolLockErrorCode } from "./policy/lock-file.js";
