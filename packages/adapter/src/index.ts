export { MCPToolAdapter } from "./mcp-tool-adapter.js";
export {
  findConfigIssues,
  TRANSPORT_TYPES,
  validateServerConfig,
  type HttpMCPServerConfig,
  type MCPServerConfig,
  type MCPTransportType,
  type StdioMCPServerConfig,
  type TransportFactory,
} from "./config.js";
export {
  MCPAdapterError,
  MCPConfigError,
  MCPConnectionError,
  MCPDiscoveryError,
  MCPNotConnectedError,
  MCPServerUnavailableError,
  MCPUsageError,
  type MCPAdapterErrorCode,
  type MCPConfigIssue,
} from "./errors.js";
export { inferCapabilities } from "@mcp-tool-adapter/capability-inference";
export type { MCPEngine, MCPProtocolEra, MCPProtocolSetting } from "@mcp-tool-adapter/core";
export type { MCPBuiltInEngine } from "./engine/built-in-engines.js";
export type { MCPToolAdapterOptions } from "./adapter-options.js";
export type { CacheStore, ToolListCacheOptions } from "./cache/cache-store.js";
export type {
  CapabilityOverridesByTool,
  ConnectOptions,
  InvokeOptions,
  Logger,
  MCPProgress,
  MCPToolAnnotations,
  MCPToolDescriptor,
  MCPInputRequired,
  MCPInputRetry,
  MCPToolErrorKind,
  MCPToolFilter,
  MCPToolResult,
  MCPToolResultData,
  RegisterToolsOptions,
  RegistrationReport,
  ToolsChangedEvent,
  ToolsChangedListener,
} from "./types.js";
export type {
  MCPCompleteOptions,
  MCPCompletion,
  MCPCompletionReference,
  MCPLogLevel,
  MCPPrompt,
  MCPPromptMessages,
  MCPRequestErrorKind,
  MCPRequestOptions,
  MCPRequestResult,
  MCPResource,
  MCPResourceContents,
  MCPResourceSubscription,
  MCPResourceTemplate,
  MCPServerLogEntry,
  PromptsChangedEvent,
  PromptsChangedListener,
  ResourcesChangedEvent,
  ResourcesChangedListener,
  ResourceUpdatedEvent,
  ResourceUpdatedListener,
  ServerLogListener,
} from "./protocol-types.js";
export { MCP_LOG_LEVELS } from "./server-logs.js";
export {
  DEFAULT_MAX_TOOL_UI_BYTES,
  type MCPToolUiCsp,
  type MCPToolUiPermissions,
  type MCPToolUiResource,
  type ReadToolUiOptions,
} from "./tool-ui-resource.js";
export type {
  HealthChangeEvent,
  HealthChangeListener,
  MCPServerHealth,
  MCPServerHealthState,
} from "./recovery/health.js";
export type { RecoveryOptions } from "./recovery/options.js";
export { isSafeToRepeat } from "./recovery/call-safety.js";
export type {
  ClientRequestContext,
  ElicitationHandler,
  MCPElicitationRequest,
  MCPElicitationResponse,
  MCPFormElicitation,
  MCPRelatedCall,
  MCPRoot,
  MCPSamplingRequest,
  MCPSamplingResponse,
  MCPUrlElicitation,
  RootsListContext,
  RootsListHandler,
  SamplingHandler,
} from "./client-features/types.js";
export type { BeforeCallDecision, ToolCallInfo, ToolCallInterceptor } from "./interceptors/types.js";
export {
  fingerprintTool,
  pinTools,
  describePinChanges,
  type PinnedToolDefinition,
  type PinnedToolParts,
  type ServerToolPins,
} from "./pinning/fingerprint.js";
export type { PinAction, ToolPinFinding, ToolPinningOptions } from "./pinning/pin-gate.js";
export type { MCPTelemetryOptions } from "./telemetry/instrumentation.js";
