export { freezeOwnedJson, frozenSnapshot } from "./frozen-snapshot.js";
export { RegistryError, type RegistryErrorCode } from "./registry-error.js";
export { ToolRegistry } from "./tool-registry.js";
export {
  isVisibleToModel,
  parseToolUiMeta,
  TOOL_UI_METADATA_KEY,
  toolUiOf,
  type ToolUi,
  type ToolVisibility,
} from "./tool-ui.js";
export { MAX_NAME_CHARACTERS, validateToolName, type NameKind } from "./validate-name.js";
export type {
  Logger,
  RegisteredTool,
  RegistryChange,
  RegistryListener,
  ToolCallContext,
  ToolCallResult,
  ToolCapabilities,
  ToolDefinition,
  ToolHandler,
  ToolListFilter,
  ToolRegistryOptions,
} from "./types.js";
export {
  findToolsetsIssues,
  matchToolset,
  selectToolset,
  toolsetPatternProblem,
  type ToolsetMatcher,
  type Toolsets,
} from "./toolsets.js";
