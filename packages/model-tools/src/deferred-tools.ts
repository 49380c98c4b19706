import { matchToolset } from "@mcp-tool-adapter/registry";
import type { ModelTool, ModelToolSetOptions } from "./model-tool-set.js";
import { ModelToolsError } from "./model-tools-error.js";
import {
  toolsOf,
  type AnthropicTool,
  type ModelToolsInput,
  type OpenAIResponsesFunctionTool,
} from "./provider-tools.js";

// Provider-native deferred loading: every definition is sent, marked `defer_loading`, and the
// provider's own search tool lets the model load the ones it needs, so a request costs the
// names it searched rather than every schema. Shapes as of Anthropic's tool search tool
// (2025-11-19 versions, beta "advanced-tool-use-2025-11-20") and OpenAI's Responses API
// `tool_search` (gpt-5.4 and later); docs/agent-runtimes.md says which models take them.

export interface DeferredToolsOptions extends ModelToolSetOptions {
  /** Tools sent in full, never deferred (toolset patterns: `["memory/read_graph"]`). */
  pinned?: readonly string[];
}

/** The beta header Anthropic's tool search tool needs (`anthropic-beta`). */
export const ANTHROPIC_TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";

export type AnthropicToolSearchVariant = "bm25" | "regex";

export interface AnthropicToolSearchTool {
  type: "tool_search_tool_bm25_20251119" | "tool_search_tool_regex_20251119";
  name: "tool_search_tool_bm25" | "tool_search_tool_regex";
}

export interface AnthropicDeferredTool extends AnthropicTool {
  defer_loading?: true;
}

export interface AnthropicDeferredToolsOptions extends DeferredToolsOptions {
  /** "bm25" (default: the model searches in natural language) or "regex" (it writes patterns). */
  search?: AnthropicToolSearchVariant;
}

/**
 * Anthropic Messages API tools with deferred loading: the tool search tool first, then every tool
 * with `defer_loading: true` except the pinned ones. Send with the beta header
 * {@link ANTHROPIC_TOOL_SEARCH_BETA}; tool calls come back under the same names as
 * `toAnthropicTools` gives, so `handleToolCall` answers them unchanged.
 */
export function toAnthropicDeferredTools(
  source: ModelToolsInput,
  options: AnthropicDeferredToolsOptions = {},
): [AnthropicToolSearchTool, ...AnthropicDeferredTool[]] {
  const variant: unknown = options.search ?? "bm25"; // JavaScript callers may pass anything
  if (variant !== "bm25" && variant !== "regex")
    throw new ModelToolsError(
      "INVALID_OPTIONS",
      `toAnthropicDeferredTools: search ${JSON.stringify(variant)} is not a variant; use "bm25" or "regex".`,
    );
  const pinned = pinnedMatcher(options.pinned);
  const searchTool: AnthropicToolSearchTool =
    variant === "bm25"
      ? { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" }
      : { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };
  const tools = toolsOf(source, options).map((tool): AnthropicDeferredTool => {
    const definition = {
      name: tool.modelName,
      description: tool.description,
      input_schema: tool.schemaFor("anthropic").schema,
    };
    return pinned(tool.registryName) ? definition : { ...definition, defer_loading: true };
  });
  return [searchTool, ...tools];
}

export interface OpenAIToolSearchTool {
  type: "tool_search";
}

export interface OpenAIResponsesDeferredFunctionTool extends OpenAIResponsesFunctionTool {
  defer_loading?: true;
}

/** A group of functions the model sees by name and description until it searches inside it. */
export interface OpenAIResponsesNamespaceTool {
  type: "namespace";
  name: string;
  description: string;
  tools: OpenAIResponsesDeferredFunctionTool[];
}

export interface OpenAIDeferredToolsOptions extends DeferredToolsOptions {
  /** Strict function calling where a schema converts without changing meaning; default true. */
  strict?: boolean;
  /**
   * Group the deferred tools into one namespace per server (registry namespace), which OpenAI
   * recommends: the model first sees only each server's name and description. Default true.
   */
  namespaces?: boolean;
  /** A namespace's description, by registry namespace; default "Tools of the MCP server <name>." */
  namespaceDescriptions?: Readonly<Record<string, string>>;
}

export type OpenAIResponsesDeferredTool =
  OpenAIToolSearchTool | OpenAIResponsesNamespaceTool | OpenAIResponsesDeferredFunctionTool;

/**
 * OpenAI Responses API tools with tool search: `{ type: "tool_search" }`, the pinned tools as
 * plain functions, and every other tool with `defer_loading: true`, grouped into one namespace per
 * server (or flat with `namespaces: false`). Function names are the same model names as
 * `toOpenAITools` gives, so `handleToolCall(..., { format: "openai-responses" })` answers them.
 */
export function toOpenAIResponsesDeferredTools(
  source: ModelToolsInput,
  options: OpenAIDeferredToolsOptions = {},
): OpenAIResponsesDeferredTool[] {
  const pinned = pinnedMatcher(options.pinned);
  const dialect = options.strict === false ? "openai" : "openai-strict";
  const functionOf = (tool: ModelTool): OpenAIResponsesFunctionTool => {
    const { schema, strict } = tool.schemaFor(dialect);
    return { type: "function", name: tool.modelName, description: tool.description, parameters: schema, strict };
  };
  const tools = toolsOf(source, options);
  const always = tools.filter((tool) => pinned(tool.registryName)).map(functionOf);
  const deferred = tools.filter((tool) => !pinned(tool.registryName));
  if (options.namespaces === false) {
    return [
      { type: "tool_search" },
      ...always,
      ...deferred.map((tool) => ({ ...functionOf(tool), defer_loading: true as const })),
    ];
  }
  const groups = new Map<string, OpenAIResponsesNamespaceTool>();
  for (const tool of deferred) {
    const server = tool.registered.namespace;
    let group = groups.get(server);
    if (group === undefined) {
      group = {
        type: "namespace",
        name: namespaceName(server),
        description: options.namespaceDescriptions?.[server] ?? `Tools of the MCP server ${server}.`,
        tools: [],
      };
      groups.set(server, group);
    }
    group.tools.push({ ...functionOf(tool), defer_loading: true });
  }
  return [{ type: "tool_search" }, ...always, ...groups.values()];
}

function pinnedMatcher(pinned: readonly string[] | undefined): (registryName: string) => boolean {
  return pinned === undefined || pinned.length === 0 ? () => false : matchToolset(pinned);
}

/** A registry namespace as a name OpenAI takes (the function names' own character set). */
function namespaceName(namespace: string): string {
  const safe = namespace.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return safe === "" ? "tools" : safe;
}
