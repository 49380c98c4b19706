export type { EmbedFunction } from "./embedding-store.js";
export { META_TOOL_NAMES } from "./meta-tools.js";
export { DEFAULT_FIELD_BOOST, TOOL_SEARCH_FIELDS, type ToolSearchField } from "./tool-document.js";
export {
  createToolIndex,
  type ToolIndex,
  type ToolIndexOptions,
  type ToolMatch,
  type ToolSearchHit,
  type ToolSearchQueryOptions,
} from "./tool-index.js";
export { createToolSearch, type ToolSearch, type ToolSearchOptions } from "./tool-search.js";
export { ToolSearchError, type ToolSearchErrorCode } from "./tool-search-error.js";
