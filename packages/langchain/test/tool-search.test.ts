import { readFile } from "node:fs/promises";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  registerInMemoryServer,
  registerMemoryServer,
  type RegisteredInMemoryServer,
  type RegisteredMemoryServer,
} from "@mcp-tool-adapter/test-helpers";
import { createToolSearch } from "@mcp-tool-adapter/tool-search";
import { createAgent, createMiddleware } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeLangChainTools, createLangChainTools } from "../src/index.js";

/** A createAgent on the search's catalog whose every model call is narrowed to the active tools; records what each call was offered. */
function searchingAgent(
  search: ReturnType<typeof createToolSearch>,
  model: ReturnType<typeof fakeModel>,
  beforeModelCall: (callIndex: number) => Promise<void> = () => Promise.resolve(),
) {
  const offered: string[][] = [];
  const agent = createAgent({
    model,
    tools: createLangChainTools(search.catalog, { errors: "message" }),
    middleware: [
      createMiddleware({
        name: "ToolSearch",
        wrapModelCall: async (request, handler) => {
          await beforeModelCall(offered.length);
          const tools = activeLangChainTools(request.tools, search.isActive);
          offered.push(tools.map((tool) => String((tool as { name?: unknown }).name)).sort());
          return handler({ ...request, tools });
        },
      }),
    ],
  });
  return { agent, offered };
}

describe("LangChain createAgent loop with tool search against a real server-memory", () => {
  const registry = new ToolRegistry();
  let memory: RegisteredMemoryServer;

  beforeAll(async () => {
    memory = await registerMemoryServer("langchain-search-", registry);
  });

  afterAll(async () => {
    await memory.close();
  });

  it("searches, loads and calls a tool it was not bound to up front", async () => {
    const search = createToolSearch(registry, { pinned: ["memory/read_graph"] });
    const createAda = { entities: [{ name: "Ada", entityType: "person", observations: ["found by search"] }] };
    const model = fakeModel()
      .respondWithTools([{ name: "tools__search", args: { query: "create entities" }, id: "c1" }])
      .respondWithTools([{ name: "tools__load", args: { names: ["memory__create_entities"] }, id: "c2" }])
      .respondWithTools([{ name: "memory__create_entities", args: createAda, id: "c3" }])
      .respond(new AIMessage("remembered"));
    const { agent, offered } = searchingAgent(search, model);
    const result = await agent.invoke({ messages: [new HumanMessage("remember Ada")] });

    expect(result.messages.at(-1)?.content).toBe("remembered");
    expect(offered[0]).toEqual(["memory__read_graph", "tools__call", "tools__load", "tools__search"]);
    expect(offered[2]).toContain("memory__create_entities");
    expect(offered[2]).not.toContain("memory__delete_entities");
    expect(await readFile(memory.memoryFile, "utf8")).toContain("found by search");
    search.close();
  });
});

describe("LangChain createAgent loop: a tool added by list_changed mid-run", () => {
  let weather: RegisteredInMemoryServer;

  beforeAll(async () => {
    weather = await registerInMemoryServer("weather", {
      tools: [{ name: "get_forecast", description: "Five-day forecast for a city." }],
    });
  });

  afterAll(async () => {
    await weather.close();
  });

  it("is found by a search after the change and called through the call meta-tool", async () => {
    const search = createToolSearch(weather.registry);
    const model = fakeModel()
      .respondWithTools([{ name: "tools__search", args: { query: "tide tables" }, id: "c1" }])
      .respondWithTools([{ name: "tools__search", args: { query: "tide tables" }, id: "c2" }])
      .respondWithTools([
        { name: "tools__call", args: { name: "weather__get_tides", arguments: { harbour: "Brest" } }, id: "c3" },
      ])
      .respond(new AIMessage("done"));
    // After the first search came back empty, the server adds the tool while the agent runs.
    const { agent } = searchingAgent(search, model, async (callIndex) => {
      if (callIndex !== 1) return;
      const changed = new Promise<void>((resolve) => {
        const stop = weather.registry.subscribe(() => {
          stop();
          resolve();
        });
      });
      await weather.server.addTool({ name: "get_tides", description: "Tide tables for a harbour." });
      await changed;
    });
    const result = await agent.invoke({ messages: [new HumanMessage("tides in Brest?")] });
    const toolMessages = result.messages
      .filter((message) => message.type === "tool")
      .map((message) => JSON.stringify(message.content));
    expect(toolMessages[0]).not.toContain("weather__get_tides");
    expect(toolMessages[1]).toContain("weather__get_tides");
    expect(toolMessages[2]).toContain("Brest");
    search.close();
  });
});
