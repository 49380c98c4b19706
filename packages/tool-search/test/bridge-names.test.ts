import { join } from "node:path";
import { MCPToolAdapter, type MCPServerConfig } from "@mcp-tool-adapter/adapter";
import { createModelToolSet, type ModelToolSet } from "@mcp-tool-adapter/model-tools";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createTempDirectory,
  expectNoLeakedProcesses,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolSearch } from "../src/index.js";

// Two real memory servers under namespaces that meet once made model-safe ("team.a" and "team_a"
// both become "team_a"): every tool of one collides with its twin, so both get hashed names.
let registry: ToolRegistry;
let temp: TempDirectory;
const adapters: MCPToolAdapter[] = [];

async function register(config: MCPServerConfig): Promise<void> {
  const adapter = new MCPToolAdapter(config, {
    transport: (serverConfig) => {
      if (serverConfig.transport !== "stdio") throw new Error("these tests use stdio servers only");
      return createStdioTransport(serverConfig);
    },
    connectTimeoutMs: 20_000,
  });
  adapters.push(adapter);
  await adapter.connect();
  await adapter.registerTools(registry, config.name);
}

beforeAll(async () => {
  temp = await createTempDirectory("tool-search-names-");
  registry = new ToolRegistry();
  await Promise.all([
    register({ name: "team.a", transport: "stdio", ...memoryStdioServer(join(temp.path, "dotted.jsonl")) }),
    register({ name: "team_a", transport: "stdio", ...memoryStdioServer(join(temp.path, "underscored.jsonl")) }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.disconnect()));
  await temp.remove();
  await expectNoLeakedProcesses();
});

async function searchedNames(set: ModelToolSet, query: string): Promise<string[]> {
  const result = await set.get(set.names.toModelName("tools/search"))?.execute({ query, limit: 20 });
  expect(result?.success).toBe(true);
  return (result?.data as { tools: { name: string }[] }).tools.map((tool) => tool.name);
}

describe("search results name tools as the bridge does", () => {
  it("gives a loaded tool whose name collides the name the search returned, and calls it by that name", async () => {
    const search = createToolSearch(registry);
    let step = createModelToolSet(search.source);
    const found = await searchedNames(step, "read the whole knowledge graph");
    const dotted = step.names.toModelName("team.a/read_graph");
    const underscored = step.names.toModelName("team_a/read_graph");
    // The twins meet, so neither keeps the readable name: both are hashed, and both are found.
    expect(dotted).not.toBe("team_a__read_graph");
    expect(dotted).not.toBe(underscored);
    expect(found).toEqual(expect.arrayContaining([dotted, underscored]));

    // Load one twin only: the next step's tool set holds it without the other, yet under the
    // name the search gave (a set named over its own tools alone would call it team_a__read_graph).
    const load = await step.get(step.names.toModelName("tools/load"))?.execute({ names: [dotted] });
    expect(load?.data).toEqual({ loaded: [dotted] });
    step = createModelToolSet(search.source);
    expect(step.tools.map((tool) => tool.modelName)).toContain(dotted);
    expect(step.tools.map((tool) => tool.registryName)).not.toContain("team_a/read_graph");
    const graph = await step.get(dotted)?.execute({});
    expect(graph).toMatchObject({ success: true });
    search.close();
  }, 60_000);

  it("names results with the naming options of the tool set the search was called through", async () => {
    const search = createToolSearch(registry);
    const dashed = createModelToolSet(search.source, { names: { separator: "-" } });
    const found = await searchedNames(dashed, "create entities in the knowledge graph");
    expect(found).toContain(dashed.names.toModelName("team.a/create_entities"));
    expect(found.every((name) => !name.includes("__"))).toBe(true);
    // Calls that bring no tool set's names (the source directly) use the search's own `names` option.
    const direct = await search.source.call("tools/search", { query: "create entities" });
    const directNames = (direct.data as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(directNames.some((name) => name.includes("__"))).toBe(true);
    search.close();
  }, 60_000);
});
