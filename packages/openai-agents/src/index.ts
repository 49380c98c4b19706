export {
  createOpenAIAgentsTools,
  type OpenAIAgentsTool,
  type OpenAIAgentsToolsOptions,
} from "./openai-agents-tools.js";
export { OpenAIAgentsBridgeError, type OpenAIAgentsBridgeErrorCode } from "./errors.js";
export { createOpenAIAgentsSamplingHandler, type OpenAIAgentsSamplingHandlerOptions } from "./sampling-handler.js";
export { OpenAIAgentsSamplingError, type OpenAIAgentsSamplingErrorCode } from "./sampling-error.js";
export { toAgentsToolOutput, type AgentsToolOutput } from "./tool-output.js";
export type { ApprovalPolicy, ToolSource, ToolSourceInput } from "@mcp-tool-adapter/model-tools";
