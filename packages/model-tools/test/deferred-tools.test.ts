import { describe, expect, it } from "vitest";
import {
  ANTHROPIC_TOOL_SEARCH_BETA,
  handleToolCall,
  toAnthropicDeferredTools,
  toAnthropicTools,
  toOpenAIResponsesDeferredTools,
  toOpenAITools,
  type OpenAIResponsesNamespaceTool,
} from "../src/index.js";
import { createNotesRegistry } from "./registry-fixture.js";

function twoServers() {
  const { registry, calls } = createNotesRegistry();
  const search = registry.get("notes/search")!;
  registry.replaceNamespace("cal.work", [{ ...search, name: "list_events", description: "List calendar events" }]);
  return { registry, calls };
}

describe("toAnthropicDeferredTools", () => {
  it("puts the BM25 tool search tool first and defers every tool but the pinned ones", () => {
    const { registry } = twoServers();
    const [searchTool, ...tools] = toAnthropicDeferredTools(registry, { pinned: ["notes/search"] });
    expect(searchTool).toEqual({ type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
    expect(ANTHROPIC_TOOL_SEARCH_BETA).toBe("advanced-tool-use-2025-11-20");
    const plain = toAnthropicTools(registry);
    expect(tools.map((tool) => tool.name)).toEqual(plain.map((tool) => tool.name));
    for (const tool of tools) {
      const same = plain.find((candidate) => candidate.name === tool.name);
      expect(tool.input_schema).toEqual(same?.input_schema);
      expect(tool.defer_loading).toBe(tool.name === "notes__search" ? undefined : true);
    }
  });

  it("offers the regex variant and refuses an unknown one", () => {
    const { registry } = twoServers();
    expect(toAnthropicDeferredTools(registry, { search: "regex" })[0]).toEqual({
      type: "tool_search_tool_regex_20251119",
      name: "tool_search_tool_regex",
    });
    expect(() => toAnthropicDeferredTools(registry, { search: "semantic" as never })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTIONS" }) as Error,
    );
  });
});

describe("toOpenAIResponsesDeferredTools", () => {
  it("gives tool_search, the pinned tools as functions, and one namespace per server of deferred functions", async () => {
    const { registry, calls } = twoServers();
    const tools = toOpenAIResponsesDeferredTools(registry, {
      pinned: ["notes/search"],
      namespaceDescriptions: { notes: "A notebook." },
    });
    expect(tools[0]).toEqual({ type: "tool_search" });
    expect(tools[1]).toMatchObject({ type: "function", name: "notes__search" });
    expect(tools[1]).not.toHaveProperty("defer_loading");
    const namespaces = tools.slice(2) as OpenAIResponsesNamespaceTool[];
    expect(namespaces.map(({ name, description }) => [name, description])).toEqual([
      ["notes", "A notebook."],
      ["cal_work", "Tools of the MCP server cal.work."],
    ]);
    const deferred = namespaces.flatMap((namespace) => namespace.tools);
    expect(deferred.map((tool) => [tool.type, tool.defer_loading])).toEqual(deferred.map(() => ["function", true]));
    const plain = toOpenAITools(registry, { api: "responses" });
    expect(deferred.map((tool) => tool.name).sort()).toEqual(
      plain
        .map((tool) => tool.name)
        .filter((name) => name !== "notes__search")
        .sort(),
    );
    // A call of a deferred tool comes back under its model name and is answered as any other.
    const output = await handleToolCall(
      registry,
      { id: "call-1", name: "cal_work__list_events", arguments: '{"query":"today"}' },
      { format: "openai-responses" },
    );
    expect(output).toMatchObject({ type: "function_call_output", call_id: "call-1" });
    expect(calls.map((call) => call.tool)).toEqual(["search"]);
  });

  it("lists deferred functions flat with namespaces: false", () => {
    const { registry } = twoServers();
    const tools = toOpenAIResponsesDeferredTools(registry, { namespaces: false, strict: false });
    expect(tools[0]).toEqual({ type: "tool_search" });
    expect(tools.slice(1).every((tool) => tool.type === "function" && tool.defer_loading === true)).toBe(true);
    expect(tools.slice(1).every((tool) => tool.type === "function" && !tool.strict)).toBe(true);
  });
});
