import { countTokens as countClaudeTokens } from "@anthropic-ai/tokenizer";
import { toAnthropicTools, toOpenAITools, type ModelToolsInput } from "@mcp-tool-adapter/model-tools";
import type { ToolRegistry } from "@mcp-tool-adapter/registry";
import { createToolSearch } from "@mcp-tool-adapter/tool-search";
import { getEncoding } from "js-tiktoken";
import { single, type Figure } from "../figures.js";

const GROUP = "tool search (issue 33)";
const TOKEN_SHARE_LIMIT = 0.05;
/** Tools the model loads in the search figure: a typical task needs a handful. */
export const LOADED_TOOLS = 5;

/** A provider's tool shape counted with that provider's tokenizer. */
interface TokenCount {
  readonly id: string;
  readonly label: string;
  readonly toTools: (tools: ModelToolsInput) => unknown;
  readonly count: (text: string) => number;
}

function tokenCounts(): readonly TokenCount[] {
  const o200k = getEncoding("o200k_base");
  return [
    {
      id: "openai",
      label: "OpenAI shape, o200k_base: GPT-4o / GPT-5",
      toTools: (tools) => toOpenAITools(tools),
      count: (text) => o200k.encode(text).length,
    },
    {
      // Anthropic's only published tokenizer is the pre-Claude-3 one: its own repository says it is
      // no longer accurate from Claude 3 on, so the figure is an approximation for current models.
      id: "anthropic",
      label: "Anthropic shape, @anthropic-ai/tokenizer: Claude 1/2, approximate for Claude 3+",
      toTools: (tools) => toAnthropicTools(tools),
      count: countClaudeTokens,
    },
  ];
}

/**
 * Tokens of the tool definitions one model request carries: every tool of the registry against
 * the search set (the three meta-tools plus five loaded tools), per provider shape and tokenizer.
 * The definitions are counted as their JSON text, the form a request body carries them in.
 */
export function measureTokens(registry: ToolRegistry): Figure[] {
  const count = registry.list().length.toLocaleString("en-US");
  const search = createToolSearch(registry);
  search.load(
    registry
      .list()
      .slice(0, LOADED_TOOLS)
      .map((tool) => tool.name),
  );
  try {
    return tokenCounts().flatMap((counter) => {
      const tokensOf = (tools: ModelToolsInput): number => counter.count(JSON.stringify(counter.toTools(tools)));
      const all = tokensOf(registry);
      const searched = tokensOf(search.source);
      return [
        single({
          id: `tool-search.tokens.${counter.id}.all`,
          group: GROUP,
          label: `tool definition tokens per request, all ${count} tools (${counter.label})`,
          unit: "count",
          value: all,
        }),
        single(
          {
            id: `tool-search.tokens.${counter.id}.search-share`,
            group: GROUP,
            label: `tool definition tokens per request with search (3 meta-tools + ${LOADED_TOOLS} loaded), share of all (${counter.id})`,
            unit: "×",
            value: searched / all,
            note: `${searched} tokens`,
          },
          (value) => ({ text: `≤ ${TOKEN_SHARE_LIMIT}`, pass: value <= TOKEN_SHARE_LIMIT }),
        ),
      ];
    });
  } finally {
    search.close();
  }
}
