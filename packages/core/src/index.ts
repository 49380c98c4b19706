export {
  ERROR_MARKER,
  MCPToolAdapterError,
  type MCPToolAdapterErrorClass,
  type MCPToolAdapterErrorOptions,
} from "./error-base.js";
export { findStringRecordIssues, type ConfigIssue } from "./config-issue.js";
export { describeCause } from "./describe-cause.js";
export type { Logger } from "./logger.js";
export { AUTH_FAILED, AUTH_REQUIRED, MESSAGE_TOO_LARGE, MESSAGE_TOO_LARGE_ERROR_CODE } from "./codes.js";
export { addHeaderSecrets, addUrlSecrets, collectConfigSecrets, isSensitiveHeader, redactSecrets } from "./redact.js";
export {
  MCP_PROTOCOL_SETTINGS,
  MCPProtocolError,
  RPC_CONNECTION_CLOSED,
  RPC_REQUEST_TIMEOUT,
  type MCPEngine,
  type MCPEngineAuthProvider,
  type MCPEngineConnection,
  type MCPEngineConnectRequest,
  type MCPEngineListeners,
  type MCPEngineMessage,
  type MCPEngineRequestContext,
  type MCPEngineRequestHandler,
  type MCPEngineRequestOptions,
  type MCPEngineServer,
  type MCPIncomingMessageExtra,
  type MCPImplementation,
  type MCPProgress,
  type MCPProtocolEra,
  type MCPProtocolSetting,
  type MCPServerCapabilities,
} from "./engine.js";
export {
  chooseSamplingModel,
  invalidSamplingRequest,
  samplingAnswer,
  samplingTurns,
  toolResultText,
  type MCPPairedToolResult,
  type MCPSamplingModelChoice,
  type MCPSamplingTurn,
} from "./sampling-conversation.js";
export {
  createJsonRpcMessageCheck,
  isPlainJsonRpcResultOrCall,
  type JsonRpcCheck,
  type JsonRpcMessageCheck,
  type JsonRpcMessageSchema,
} from "./json-rpc-check.js";
export { cutOffByProxy, jsonRpcErrorIn, type HttpErrorAnswer, type JsonRpcErrorAnswer } from "./http-error-answer.js";
export { isStepUpAuthProvider, type StepUpAuthProvider } from "./step-up.js";
export { SENT_AT_ONCE } from "./sent-at-once.js";
export { holdsProcessOpen, type ProcessHoldingTransport } from "./process-holding.js";
export {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_RESOURCE_URI,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  describeMCPRequestSpan,
  MCP_DURATION_BUCKETS,
  METRIC_MCP_CLIENT_OPERATION_DURATION,
  METRIC_MCP_CLIENT_SESSION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
  SESSION_ERROR_CONNECTION_LOST,
  SESSION_ERROR_SERVER_CLOSED,
  type MCPRequestSpanDescription,
} from "./mcp-span-conventions.js";
export { OTEL_GLOBAL_KEY, otelRegistered, type OTelGlobalApi } from "./otel-registered.js";
export { relayTransportEvents, type TransportEvents } from "./transport-events.js";
export { untilAborted } from "./until-aborted.js";
export type {
  MCPClientRequestContext,
  MCPRelatedCall,
  MCPContentAnnotations,
  MCPSamplingAudioContent,
  MCPSamplingContent,
  MCPSamplingHandler,
  MCPSamplingImageContent,
  MCPSamplingMessage,
  MCPSamplingRequest,
  MCPSamplingResponse,
  MCPSamplingStopReason,
  MCPSamplingTextContent,
  MCPSamplingTool,
  MCPSamplingToolChoice,
  MCPToolResultContent,
  MCPToolUseContent,
} from "./sampling-types.js";
