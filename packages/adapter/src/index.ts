export { MCPToolAdapter } from "./mcp-tool-adapter.js";
export {
  findConfigIssues,
  HttpMCPServerConfigSchema,
  MCPServerConfigSchema,
  StdioMCPServerConfigSchema,
  TRANSPORT_TYPES,
  validateServerConfig,
  type HttpMCPServerConfig,
  type MCPServerConfig,
  type MCPTransportType,
  type StdioMCPServerConfig,
} from "./config.js";
export {
  MCPAdapterError,
  MCPConfigError,
  MCPConnectionError,
  MCPDiscoveryError,
  MCPNotConnectedError,
  type MCPAdapterErrorCode,
  type MCPConfigIssue,
} from "./errors.js";
export { inferCapabilities } from "@mcp-tool-adapter/capability-inference";
export type {
  ConnectOptions,
  InvokeOptions,
  Logger,
  MCPProgress,
  MCPToolAdapterOptions,
  MCPToolAnnotations,
  MCPToolDescriptor,
  MCPToolErrorKind,
  MCPToolFilter,
  MCPToolResult,
  MCPToolResultData,
  RegisterToolsOptions,
  RegistrationReport,
  ToolsChangedEvent,
  ToolsChangedListener,
  TransportFactory,
} from "./types.js";
