import { ToolRegistry, type ToolDefinition } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { createToolIndex } from "../src/index.js";

function tool(name: string, description: string): ToolDefinition {
  return {
    name,
    description,
    inputSchema: { type: "object", properties: {} },
    capabilities: { readOnly: true, writes: false },
    source: "local",
    sourceMetadata: {},
    checkpointable: false,
    handler: () => ({ success: true, data: null }),
  };
}

function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  tools.replaceNamespace("code", [
    tool("search_repositories", "Search for repositories by topic."),
    tool("list_commits", "Commits of a branch."),
  ]);
  tools.replaceNamespace("chat", [tool("post_message", "Post a message to a channel about repositories.")]);
  return tools;
}

// How query words become index lookups: prefix completion for the last word only (as a search
// box completes what is being typed), and a namespace restriction that leaves other tools out.
describe("tool index query terms", () => {
  it("completes the last word as a prefix", () => {
    const index = createToolIndex(registry());
    expect(index.search("find repo")[0]?.name).toBe("code/search_repositories");
  });

  it("does not complete words before the last one", () => {
    const index = createToolIndex(registry());
    expect(index.search("repo commits").map((hit) => hit.name)).toEqual(["code/list_commits"]);
  });

  it("searches one namespace only when asked, with the same scores as the whole index there", () => {
    const index = createToolIndex(registry());
    const inChat = index.search("repositories", { namespace: "chat" });
    expect(inChat.map((hit) => hit.name)).toEqual(["chat/post_message"]);
    const everywhere = index.search("repositories").find((hit) => hit.name === "chat/post_message");
    expect(inChat[0]?.score).toBeCloseTo(everywhere?.score ?? Number.NaN);
  });
});
