export {
  createLangChainTools,
  MCPStructuredTool,
  type LangChainErrorHandling,
  type LangChainToolsOptions,
} from "./langchain-tools.js";
export { activeLangChainTools } from "./active-tools.js";
export { approvalInterruptOn } from "./approval.js";
export { LangChainToolCallError, type LangChainBridgeErrorCode } from "./errors.js";
export { createLangChainSamplingHandler, type LangChainSamplingHandlerOptions } from "./sampling-handler.js";
export { LangChainSamplingError, type LangChainSamplingErrorCode } from "./sampling-error.js";
export { toLangChainContent, type LangChainToolContent } from "./tool-message-content.js";
export type { ApprovalPolicy, SchemaDialect, ToolSource, ToolSourceInput } from "@mcp-tool-adapter/model-tools";
