import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import type { ToolSource } from "@mcp-tool-adapter/model-tools";
import type { RegistryChange } from "@mcp-tool-adapter/registry";
import { createInMemoryTestServer, type InMemoryTestServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createToolIndex, createToolSearch, type EmbedFunction } from "../src/index.js";

// A real adapter on an in-process SDK server that changes its tool list.
const opened: { adapter: MCPToolAdapter; server: InMemoryTestServer }[] = [];

async function connected(): Promise<{ adapter: MCPToolAdapter; server: InMemoryTestServer }> {
  const server = createInMemoryTestServer({
    tools: [
      { name: "get_weather", description: "Current weather for a city." },
      { name: "get_forecast", description: "Five-day forecast for a city." },
    ],
  });
  const adapter = new MCPToolAdapter(
    { name: "weather", transport: "stdio", command: "in-process" },
    { transport: () => server.connect() },
  );
  opened.push({ adapter, server });
  await adapter.connect();
  await adapter.discoverTools();
  return { adapter, server };
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map(({ adapter, server }) => Promise.all([adapter.disconnect(), server.close()])));
});

function nextChange(source: ToolSource): Promise<RegistryChange> {
  return new Promise((resolve) => {
    const stop = source.subscribe((change) => {
      stop();
      resolve(change);
    });
  });
}

describe("the index follows tools/list_changed", () => {
  it("finds a tool added mid-run and forgets a removed one, touching only the changed tools", async () => {
    const { adapter, server } = await connected();
    const search = createToolSearch(adapter);
    expect(search.index.search("tide tables").map((hit) => hit.name)).toEqual([]);

    const added = nextChange(search.source);
    await server.addTool({ name: "get_tides", description: "Tide tables for a harbour." });
    expect(await added).toMatchObject({ namespace: "weather", added: ["weather/get_tides"], removed: [], changed: [] });
    expect(search.index.search("tide tables")[0]?.name).toBe("weather/get_tides");
    expect(search.index.size).toBe(3);

    const removed = nextChange(search.source);
    await server.removeTool("get_forecast");
    expect(await removed).toMatchObject({ removed: ["weather/get_forecast"] });
    expect(search.index.has("weather/get_forecast")).toBe(false);
    expect(search.index.search("forecast").map((hit) => hit.name)).not.toContain("weather/get_forecast");
    search.close();
  });

  it("drops a loaded tool that the server removed", async () => {
    const { adapter, server } = await connected();
    const search = createToolSearch(adapter);
    expect(search.load(["weather__get_forecast"])).toEqual(["weather/get_forecast"]);
    const removed = nextChange(search.source);
    await server.removeTool("get_forecast");
    await removed;
    expect(search.loaded).toEqual([]);
    search.close();
  });
});

describe("hybrid search with a user embedding function", () => {
  // A real (tiny) embedding: hashed bag of words with a synonym table, as a user's model would map meaning.
  const synonyms: Record<string, string> = { rain: "weather", umbrella: "weather", sea: "tide", ocean: "tide" };
  const embedded: string[][] = [];
  const embed: EmbedFunction = (texts) => {
    embedded.push([...texts]);
    return Promise.resolve(
      texts.map((text) => {
        const vector = Array.from({ length: 32 }, () => 0);
        for (const raw of text.toLowerCase().split(/[^a-z]+/)) {
          const word = synonyms[raw] ?? raw.replace(/s$/, "");
          if (word === "") continue;
          let hash = 0;
          for (const character of word) hash = (hash * 31 + character.charCodeAt(0)) % 32;
          vector[hash] = (vector[hash] ?? 0) + 1;
        }
        return vector;
      }),
    );
  };

  it("ranks by meaning where no word matches, and embeds only new tools after a change", async () => {
    const { adapter, server } = await connected();
    const index = createToolIndex(adapter, { embed });
    expect(index.search("need an umbrella?")).toEqual([]);
    const hits = await index.searchHybrid("need an umbrella?", { limit: 1 });
    expect(hits[0]?.name).toBe("weather/get_weather");
    expect(hits[0]?.matched[0]?.fields).toEqual(["meaning"]);
    expect(embedded.at(-1)).toHaveLength(3); // the query and both tools

    const added = new Promise<void>((resolve) => adapter.onToolsChanged(() => resolve()));
    await server.addTool({ name: "get_tides", description: "Tide tables for a harbour." });
    await added;
    await index.searchHybrid("ocean", { limit: 1 });
    expect(embedded.at(-1)).toEqual(["ocean", "weather/get_tides: Tide tables for a harbour."]);
    index.close();
  });

  it("rejects with EMBEDDING_FAILED when embed fails or returns the wrong shape", async () => {
    const { adapter } = await connected();
    const failing = createToolIndex(adapter, { embed: () => Promise.reject(new Error("model offline")) });
    await expect(failing.searchHybrid("x")).rejects.toMatchObject({
      code: "EMBEDDING_FAILED",
      message: expect.stringContaining("model offline") as string,
    });
    const short = createToolIndex(adapter, { embed: () => Promise.resolve([[1]]) });
    await expect(short.searchHybrid("x")).rejects.toMatchObject({ code: "EMBEDDING_FAILED" });
  });
});
