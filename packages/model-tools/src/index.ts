export { needsApproval, type ApprovalPolicy, type ApprovalSubject } from "./approval.js";
export {
  handleToolCall,
  type HandleToolCallOptions,
  type ProviderToolCall,
  type ToolCallFormat,
  type ToolCallOutputs,
} from "./handle-tool-call.js";
export {
  DEFAULT_MODEL_RESULT_MAX_CHARS,
  DEFAULT_MODEL_RESULT_MAX_MEDIA_BYTES,
  toModelContent,
  toModelText,
  type ModelContent,
  type ModelContentPart,
  type ModelResultOptions,
} from "./model-content.js";
export {
  createModelToolNames,
  MODEL_TOOL_NAME_PATTERN,
  MODEL_TOOL_WORD_NAME_PATTERN,
  type ModelToolNameCharset,
  type ModelToolNameOptions,
  type ModelToolNames,
} from "./model-tool-names.js";
export {
  createModelToolSet,
  type ModelTool,
  type ModelToolExecuteOptions,
  type ModelToolSet,
  type ModelToolSetOptions,
} from "./model-tool-set.js";
export { ModelToolsError, type ModelToolsErrorCode } from "./model-tools-error.js";
export {
  toAnthropicToolResult,
  toGeminiFunctionResponse,
  toOpenAIChatToolMessage,
  toOpenAIResponsesOutput,
  type AnthropicToolResultBlock,
  type AnthropicToolResultContent,
  type GeminiFunctionResponsePart,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFunctionCallOutput,
  type OpenAIResponsesOutputItem,
} from "./provider-results.js";
export {
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toOpenAITools,
  type AnthropicTool,
  type GeminiFunctionDeclaration,
  type ModelToolsInput,
  type OpenAIChatFunctionTool,
  type OpenAIFunctionTool,
  type OpenAIResponsesFunctionTool,
  type OpenAIToolsOptions,
} from "./provider-tools.js";
export {
  convertInputSchema,
  SCHEMA_DIALECTS,
  type ConvertedSchema,
  type SchemaDialect,
} from "./schema/convert-input-schema.js";
export type { ToolAdapterSource } from "./adapter-tool-source.js";
export { resolveToolSource, type ModelToolCallContext, type ToolSource, type ToolSourceInput } from "./tool-source.js";
export { toolsetMatcher, type ToolsetOption } from "./toolset-option.js";
export { SUBSCHEMA_KEYWORDS, SUBSCHEMA_LIST_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "./schema/schema-keywords.js";
export {
  ANTHROPIC_TOOL_SEARCH_BETA,
  toAnthropicDeferredTools,
  toOpenAIResponsesDeferredTools,
  type AnthropicDeferredTool,
  type AnthropicDeferredToolsOptions,
  type AnthropicToolSearchTool,
  type AnthropicToolSearchVariant,
  type DeferredToolsOptions,
  type OpenAIDeferredToolsOptions,
  type OpenAIResponsesDeferredFunctionTool,
  type OpenAIResponsesDeferredTool,
  type OpenAIResponsesNamespaceTool,
  type OpenAIToolSearchTool,
} from "./deferred-tools.js";
