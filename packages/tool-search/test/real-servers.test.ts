import { join } from "node:path";
import { MCPToolAdapter, type MCPServerConfig, type ToolCallInfo } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createTempDirectory,
  everythingStdioServer,
  expectNoLeakedProcesses,
  filesystemStdioServer,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolIndex, createToolSearch, ToolSearchError } from "../src/index.js";

// Three real npm servers over real stdio pipes, registered through the adapter: what a user runs.
let registry: ToolRegistry;
let temp: TempDirectory;
const adapters: MCPToolAdapter[] = [];
const intercepted: string[] = [];

async function register(config: MCPServerConfig): Promise<void> {
  const adapter = new MCPToolAdapter(config, {
    transport: (serverConfig) => {
      if (serverConfig.transport !== "stdio") throw new Error("these tests use stdio servers only");
      return createStdioTransport(serverConfig);
    },
    connectTimeoutMs: 20_000,
    interceptors: [
      {
        name: "recorder",
        beforeCall: (call: ToolCallInfo) => {
          intercepted.push(`${call.serverName}/${call.toolName}`);
        },
      },
    ],
  });
  adapters.push(adapter);
  await adapter.connect();
  await adapter.registerTools(registry, config.name);
}

beforeAll(async () => {
  temp = await createTempDirectory("tool-search-");
  registry = new ToolRegistry();
  await Promise.all([
    register({ name: "everything", transport: "stdio", ...everythingStdioServer() }),
    register({ name: "filesystem", transport: "stdio", ...filesystemStdioServer([temp.path]) }),
    register({ name: "memory", transport: "stdio", ...memoryStdioServer(join(temp.path, "memory.jsonl")) }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.disconnect()));
  await temp.remove();
  await expectNoLeakedProcesses();
});

describe("createToolIndex over real servers", () => {
  it("finds tools by task words across names, descriptions and parameters, and says why", () => {
    const index = createToolIndex(registry);
    expect(index.size).toBe(registry.size);
    const top = (query: string): string[] => index.search(query, { limit: 3 }).map((hit) => hit.name);
    expect(top("write a file to disk")).toContain("filesystem/write_file");
    expect(top("list the files in a directory")).toContain("filesystem/list_directory");
    expect(top("create entities in the knowledge graph")[0]).toBe("memory/create_entities");
    expect(top("add observations")[0]).toBe("memory/add_observations");
    const [hit] = index.search("read graph", { limit: 1 });
    expect(hit).toMatchObject({ name: "memory/read_graph", namespace: "memory" });
    expect(hit?.matched).toEqual(
      expect.arrayContaining([{ term: "graph", fields: expect.arrayContaining(["name"]) as unknown }]),
    );
    expect(hit?.description).not.toContain("\n");
    index.close();
  });

  it("searches within a toolset and within one namespace", () => {
    const index = createToolIndex(registry, { toolset: ["memory/*", "!memory/delete_*"] });
    expect(index.search("delete entities").map((hit) => hit.name)).not.toContain("memory/delete_entities");
    expect(index.has("filesystem/write_file")).toBe(false);
    const all = createToolIndex(registry);
    expect(all.search("read", { namespace: "filesystem" }).every((hit) => hit.namespace === "filesystem")).toBe(true);
    index.close();
    all.close();
  });
});

describe("createToolSearch over real servers", () => {
  it("shows only the meta-tools and pinned tools, then loads what search found; calls go through the adapter's invoke", async () => {
    const search = createToolSearch(registry, { pinned: ["memory/read_graph"] });
    expect(search.source.list().map((tool) => tool.name)).toEqual([
      "tools/search",
      "tools/load",
      "tools/call",
      "memory/read_graph",
    ]);

    const found = await search.source.call("tools/search", { query: "create entities knowledge graph" });
    expect(found.success).toBe(true);
    const tools = (found.data as { tools: { name: string; matched: string }[] }).tools;
    expect(tools[0]).toMatchObject({ name: "memory__create_entities" });
    expect(tools[0]?.matched).toMatch(/entity \(name/);

    const notYet = await search.source.call("memory/create_entities", { entities: [] });
    expect(notYet).toMatchObject({ success: false, errorKind: "not_found" });
    expect(notYet.error).toMatch(/not loaded: find it with tools__search and load it with tools__load/);

    const loaded = await search.source.call("tools/load", { names: ["memory__create_entities", "nope__nothing"] });
    expect(loaded.data).toEqual({ loaded: ["memory__create_entities"], unknown: ["nope__nothing"] });
    expect(search.source.list().map((tool) => tool.name)).toContain("memory/create_entities");

    intercepted.length = 0;
    const entities = [{ name: "Ada", entityType: "person", observations: ["found by search"] }];
    const created = await search.source.call("memory/create_entities", { entities });
    expect(created.success).toBe(true);
    const direct = await search.source.call("tools/call", {
      name: "memory__search_nodes",
      arguments: { query: "Ada" },
    });
    expect(direct.success).toBe(true);
    expect(JSON.stringify(direct.data)).toContain("found by search");
    expect(intercepted).toEqual(["memory/create_entities", "memory/search_nodes"]);

    const invalid = await search.source.call("tools/call", { name: "memory__search_nodes", arguments: { query: 7 } });
    expect(invalid).toMatchObject({ success: false, errorKind: "validation" });
    search.unload();
    expect(search.loaded).toEqual([]);
    search.close();
  });

  it("keeps load and call inside the toolset", async () => {
    const search = createToolSearch(registry, { toolset: ["memory/*"] });
    const refused = await search.source.call("tools/load", { names: ["filesystem/write_file"] });
    expect(refused).toMatchObject({ success: false, errorKind: "not_found" });
    const called = await search.source.call("tools/call", { name: "filesystem__read_file", arguments: {} });
    expect(called).toMatchObject({ success: false, errorKind: "not_found" });
    expect(search.catalog.list().every((tool) => tool.namespace === "memory" || tool.namespace === "tools")).toBe(true);
    search.close();
  });

  it("refuses bad options with classified errors", () => {
    expect(() => createToolSearch(registry, { namespace: "memory" })).toThrow(
      expect.objectContaining({ code: "NAME_COLLISION" }) as Error,
    );
    expect(() => createToolSearch(registry, { maxResults: 0 })).toThrow(ToolSearchError);
    expect(() => createToolIndex(registry, { boost: { name: -1 } })).toThrow(/boost.name must be a number >= 0/);
    expect(() => createToolIndex(registry).search("x", { limit: 0 })).toThrow(/limit must be a whole number/);
  });
});
