export { activeToolNames, createAISDKTools, type AISDKTool, type AISDKToolsOptions } from "./ai-sdk-tools.js";
export { toAISDKModelOutput } from "./model-output.js";
export { createAISDKSearchTools, type AISDKSearchTools, type AISDKToolSearchInput } from "./search-tools.js";
export type { ApprovalPolicy, SchemaDialect, ToolSource, ToolSourceInput } from "@mcp-tool-adapter/model-tools";
export {
  createAISDKSamplingHandler,
  type AISDKSamplingHandlerOptions,
  type AISDKSamplingSettings,
} from "./sampling-handler.js";
export { AISDKSamplingError, type AISDKSamplingErrorCode } from "./sampling-error.js";
