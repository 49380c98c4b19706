export { createAISDKTools, type AISDKTool, type AISDKToolsOptions } from "./ai-sdk-tools.js";
export { toAISDKModelOutput } from "./model-output.js";
export { resolveToolSource, type ToolSourceInput } from "./tool-source.js";
export type { ApprovalPolicy, SchemaDialect, ToolSource } from "@mcp-tool-adapter/model-tools";
