import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { measureTokens } from "../src/scenarios/tool-search-tokens.js";
import { distractorTool } from "../src/servers/distractor-tools.js";

function registryOf(size: number): ToolRegistry {
  const registry = new ToolRegistry();
  const tools = Array.from({ length: size }, (_, index) => {
    const tool = distractorTool(index);
    return {
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      capabilities: { readOnly: false, writes: true },
      source: "mcp" as const,
      sourceMetadata: {},
      checkpointable: false,
      handler: () => ({ success: true, data: null }),
    };
  });
  registry.replaceNamespace("service", tools);
  return registry;
}

describe("tool-search token figures", () => {
  it("counts both providers' shapes with their own tokenizers, all tools against the search set", () => {
    const figures = measureTokens(registryOf(200));
    const value = (id: string): number => {
      const figure = figures.find((each) => each.id === id);
      if (figure?.value === undefined) throw new Error(`no figure ${id}`);
      return figure.value;
    };
    const openAI = value("tool-search.tokens.openai.all");
    const anthropic = value("tool-search.tokens.anthropic.all");
    // 200 tools with descriptions and parameters are tens of tokens each in either vocabulary.
    expect(openAI).toBeGreaterThan(200 * 30);
    expect(anthropic).toBeGreaterThan(200 * 30);
    // Two tokenizers over two shapes do not give the same count.
    expect(anthropic).not.toBe(openAI);
    for (const provider of ["openai", "anthropic"]) {
      const share = value(`tool-search.tokens.${provider}.search-share`);
      expect(share).toBeGreaterThan(0);
      expect(share).toBeLessThan(0.2);
    }
  }, 60_000);
});
