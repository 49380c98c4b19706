export { MCPToolAdapter, type MCPToolAdapterOptions } from "./mcp-tool-adapter.js";
export { createDefaultTransport, type DefaultTransportOptions } from "./default-transport.js";
export {
  findConfigIssues,
  HttpMCPServerConfigSchema,
  MCPAdapterError,
  MCPConfigError,
  MCPConnectionError,
  MCPDiscoveryError,
  MCPNotConnectedError,
  MCPServerConfigSchema,
  StdioMCPServerConfigSchema,
  TRANSPORT_TYPES,
  validateServerConfig,
  type ConnectOptions,
  type HttpMCPServerConfig,
  type InvokeOptions,
  type Logger,
  type MCPAdapterErrorCode,
  type MCPConfigIssue,
  type MCPProgress,
  type MCPServerConfig,
  type MCPToolAnnotations,
  type MCPToolDescriptor,
  type MCPToolErrorKind,
  type MCPToolFilter,
  type MCPToolResult,
  type MCPToolResultData,
  type MCPTransportType,
  type RegisterToolsOptions,
  type RegistrationReport,
  type StdioMCPServerConfig,
  type ToolsChangedEvent,
  type ToolsChangedListener,
  type TransportFactory,
} from "@mcp-tool-adapter/adapter";
export { MCPToolAdapterError } from "@mcp-tool-adapter/core";
export {
  inferCapabilities,
  READ_KEYWORDS,
  splitToolName,
  WRITE_KEYWORDS,
  type CapabilityDecisions,
  type CapabilityOverrides,
  type CapabilitySource,
  type ToolAnnotationHints,
  type ToolCapability,
} from "@mcp-tool-adapter/capability-inference";
export {
  frozenSnapshot,
  MAX_NAME_CHARACTERS,
  RegistryError,
  ToolRegistry,
  validateToolName,
  type NameKind,
  type RegisteredTool,
  type RegistryChange,
  type RegistryErrorCode,
  type RegistryListener,
  type ToolCallContext,
  type ToolCallResult,
  type ToolCapabilities,
  type ToolDefinition,
  type ToolHandler,
  type ToolListFilter,
  type ToolRegistryOptions,
} from "@mcp-tool-adapter/registry";
export {
  createSchemaValidator,
  createSdkJsonSchemaValidator,
  DEFAULT_MAX_FORMATTED_ERRORS,
  formatValidationErrors,
  MAX_SCHEMA_DEPTH,
  SchemaValidationError,
  SUPPORTED_SCHEMA_URIS,
  type CompiledSchema,
  type FormatValidationErrorsOptions,
  type SchemaValidationErrorCode,
  type SchemaValidationErrorOptions,
  type SchemaValidator,
  type SchemaValidatorOptions,
  type ValidationIssue,
  type ValidationResult,
} from "@mcp-tool-adapter/schema-validation";
export {
  buildServerEnvironment,
  createStdioTransport,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_MESSAGE_BYTES as DEFAULT_STDIO_MAX_MESSAGE_BYTES,
  DEFAULT_STDERR_BUFFER_BYTES,
  liveServerCount,
  MESSAGE_TOO_LARGE_ERROR_CODE,
  StdioServerConfigSchema,
  StdioTransport,
  StdioTransportError,
  type ServerExit,
  type StdioServerConfig,
  type StdioTransportErrorCode,
  type StdioTransportErrorDetails,
  type StdioTransportOptions,
} from "@mcp-tool-adapter/transport-stdio";
export {
  createSseTransport,
  createStreamableHttpTransport,
  DEFAULT_MAX_MESSAGE_BYTES as DEFAULT_HTTP_MAX_MESSAGE_BYTES,
  FallbackHttpTransport,
  HttpServerConfigSchema,
  HttpTransport,
  HttpTransportError,
  collectConfigSecrets,
  redactSecrets,
  type HttpServerConfig,
  type HttpTransportErrorCode,
  type HttpTransportErrorOptions,
  type HttpTransportKind,
  type HttpTransportOptions,
  type StreamableHttpTransportOptions,
} from "@mcp-tool-adapter/transport-http";
export {
  MCPServerSet,
  type MCPServerSetOptions,
  type ServerSetConnectOptions,
} from "./server-set.js";
export { MCPServerSetError, type MCPServerSetErrorCode } from "./server-set/errors.js";
export type { ServerEntries, ServerEntry, ServerEntryOptions, ServerToolsConfig } from "./server-set/server-entry.js";
export type {
  ServerConnectResult,
  ServerFailure,
  ServerFailureKind,
  ServerSetAdapter,
  ServerSetAdapterFactory,
  ServerSetCloseReport,
  ServerSetConnectReport,
} from "./server-set/types.js";
export {
  loadConfigFile,
  parseConfig,
  type LoadConfigFileOptions,
  type MCPServersConfig,
  type ParseConfigOptions,
} from "./config-file/load-config-file.js";
export { MCPConfigFileError, type ConfigFileIssue, type MCPConfigFileErrorCode } from "./config-file/errors.js";
export { expandEnvReferences, type EnvMap } from "./config-file/expand-env.js";
export type { ConfigFileFormat } from "./config-file/parse-text.js";
export { ConfigFileServerEntrySchema, ServerToolsConfigSchema, type ConfigFileServerEntry } from "./config-file/schema.js";
export { runCli } from "./cli/run-cli.js";
export type { CliIO, CliWritable } from "./cli/io.js";
export { DEFAULT_CONFIG_PATH, defaultConfigVariables } from "./cli/default-config.js";
