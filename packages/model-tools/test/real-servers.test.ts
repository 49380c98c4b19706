import { MCPToolAdapter, type MCPServerConfig } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createTempDirectory,
  everythingStdioServer,
  expectNoLeakedProcesses,
  filesystemStdioServer,
  hostileServerConfig,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createModelToolNames,
  createModelToolSet,
  handleToolCall,
  MODEL_TOOL_NAME_PATTERN,
  MODEL_TOOL_WORD_NAME_PATTERN,
  SCHEMA_DIALECTS,
  type ModelToolSet,
} from "../src/index.js";

// Real npm servers over real stdio pipes, registered through the adapter: what a user runs.
let registry: ToolRegistry;
let toolSet: ModelToolSet;
let temp: TempDirectory;
const adapters: MCPToolAdapter[] = [];

async function register(config: MCPServerConfig, namespace: string): Promise<void> {
  const adapter = new MCPToolAdapter(config, {
    transport: (serverConfig) => {
      if (serverConfig.transport !== "stdio") throw new Error("these tests use stdio servers only");
      return createStdioTransport(serverConfig);
    },
    connectTimeoutMs: 20_000,
  });
  adapters.push(adapter);
  await adapter.connect();
  await adapter.registerTools(registry, namespace);
}

beforeAll(async () => {
  temp = await createTempDirectory("model-tools-");
  registry = new ToolRegistry();
  await Promise.all([
    register({ name: "everything", transport: "stdio", ...everythingStdioServer() }, "everything"),
    register({ name: "filesystem", transport: "stdio", ...filesystemStdioServer([temp.path]) }, "filesystem"),
    register({ name: "memory", transport: "stdio", ...memoryStdioServer(join(temp.path, "memory.jsonl")) }, "memory"),
    register({ name: "hostile", transport: "stdio", ...hostileServerConfig({ badSchemas: true }) }, "hostile"),
  ]);
  toolSet = createModelToolSet(registry);
}, 60_000);

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.disconnect()));
  await temp.remove();
  await expectNoLeakedProcesses();
});

describe("with server-everything, server-filesystem, server-memory and hostile schemas", () => {
  it("gives every tool a model-safe name that maps back to it", () => {
    const registered = registry.list();
    expect(registered.filter((tool) => tool.namespace === "everything").length).toBeGreaterThan(5);
    expect(registered.filter((tool) => tool.namespace === "filesystem").length).toBeGreaterThan(5);
    expect(registered.filter((tool) => tool.namespace === "memory").length).toBeGreaterThan(5);
    expect(toolSet.tools).toHaveLength(registered.length);
    for (const tool of registered) {
      const modelName = toolSet.names.toModelName(tool.name);
      expect(modelName).toMatch(MODEL_TOOL_NAME_PATTERN);
      expect(toolSet.names.toRegistryName(modelName)).toBe(tool.name);
      expect(toolSet.get(modelName)?.registered).toBe(tool);
    }
    expect(toolSet.names.toModelName("memory/read_graph")).toBe("memory__read_graph");
    expect(toolSet.names.toModelName("everything/get-tiny-image")).toBe("everything__get-tiny-image");
  });

  it('gives every tool a name without "-" under charset "word" (the OpenAI Agents SDK\'s rule) that maps back to it', () => {
    const registered = registry.list();
    const names = createModelToolNames(
      registered.map((tool) => tool.name),
      { charset: "word" },
    );
    const seen = new Set<string>();
    for (const tool of registered) {
      const modelName = names.toModelName(tool.name);
      expect(modelName).toMatch(MODEL_TOOL_WORD_NAME_PATTERN);
      expect(seen.has(modelName)).toBe(false);
      seen.add(modelName);
      expect(names.toRegistryName(modelName)).toBe(tool.name);
    }
    expect(names.toModelName("everything/get-tiny-image")).toBe("everything__get_tiny_image");
  });

  it("keeps every real property key, or renames it to one Anthropic and Gemini accept", () => {
    for (const tool of toolSet.tools)
      for (const dialect of ["anthropic", "gemini"] as const) {
        const properties = tool.schemaFor(dialect).schema.properties as Record<string, unknown>;
        for (const key of Object.keys(properties))
          expect(key, `${tool.registryName} ${dialect}`).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
      }
  });

  it("converts every schema for every dialect to an object root, strict for the ordinary ones", () => {
    for (const tool of toolSet.tools) {
      for (const dialect of SCHEMA_DIALECTS) {
        const { schema } = tool.schemaFor(dialect);
        expect(schema.type, `${tool.registryName} ${dialect}`).toBe(dialect === "gemini" ? "OBJECT" : "object");
      }
    }
    const strictOf = (name: string): boolean =>
      toolSet.get(toolSet.names.toModelName(name))!.schemaFor("openai-strict").strict;
    expect(strictOf("memory/create_entities")).toBe(true);
    expect(strictOf("filesystem/read_text_file")).toBe(true);
    expect(strictOf("everything/echo")).toBe(true);
    expect(strictOf("hostile/recursive_ref")).toBe(false);
    expect(strictOf("hostile/remote_ref")).toBe(false);
  });

  it("runs a model's tool calls end to end: create an entity with strict-style nulls, then read it back", async () => {
    const created = await handleToolCall(
      toolSet,
      {
        id: "call_1",
        name: "memory__create_entities",
        arguments: JSON.stringify({
          entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }],
        }),
      },
      { format: "openai-chat" },
    );
    expect(created.tool_call_id).toBe("call_1");
    expect(created.content).toContain("Ada");
    const graph = await handleToolCall(
      toolSet,
      { id: "call_2", name: "memory__read_graph", arguments: "{}" },
      { format: "anthropic" },
    );
    expect(graph.is_error).toBeUndefined();
    expect(JSON.stringify(graph.content)).toContain("wrote the first program");
  });

  it("restores nulls for optional arguments before the real server sees them", async () => {
    await handleToolCall(
      toolSet,
      {
        id: "c",
        name: "filesystem__write_file",
        arguments: { path: join(temp.path, "notes.txt"), content: "line one\nline two\nline three" },
      },
      { format: "openai-chat" },
    );
    const strictSchema = toolSet.get("filesystem__read_text_file")!.schemaFor("openai-strict").schema as {
      required: string[];
    };
    expect(strictSchema.required).toEqual(expect.arrayContaining(["path", "head"]) as unknown);
    const read = await handleToolCall(
      toolSet,
      {
        id: "c",
        name: "filesystem__read_text_file",
        arguments: JSON.stringify({ path: join(temp.path, "notes.txt"), head: null, tail: null }),
      },
      { format: "openai-responses" },
    );
    expect(read.output).toBe("line one\nline two\nline three");
  });

  it("returns an image from a real server in each provider's image shape", async () => {
    const anthropic = await handleToolCall(
      toolSet,
      { id: "t", name: "everything__get-tiny-image", arguments: "{}" },
      { format: "anthropic" },
    );
    expect(anthropic.content.some((block) => block.type === "image" && block.source.media_type === "image/png")).toBe(
      true,
    );
    const responses = await handleToolCall(
      toolSet,
      { id: "t", name: "everything__get-tiny-image", arguments: "{}" },
      { format: "openai-responses" },
    );
    expect(
      Array.isArray(responses.output) &&
        responses.output.some(
          (item) => item.type === "input_image" && item.image_url.startsWith("data:image/png;base64,"),
        ),
    ).toBe(true);
  });

  it("answers wrong arguments with the validation problems, and the next call works", async () => {
    const wrong = await handleToolCall(
      toolSet,
      { id: "c", name: "everything__echo", arguments: '{"msg":"hi"}' },
      { format: "openai-chat" },
    );
    // MCP tools are validated once, by the adapter, against the same schema.
    expect(wrong.content).toMatch(
      /^Error \(errorKind: validation\): .*tool "echo": must have required property 'message'/,
    );
    expect(wrong.content).toContain("Next step: Fix the arguments");
    const right = await handleToolCall(
      toolSet,
      { id: "c", name: "everything__echo", arguments: '{"message":"hi"}' },
      { format: "openai-chat" },
    );
    expect(right.content).toContain("hi");
  });

  it("cuts a large real result to the budget with a visible marker", async () => {
    await handleToolCall(
      toolSet,
      {
        id: "c",
        name: "filesystem__write_file",
        arguments: { path: join(temp.path, "big.txt"), content: "x".repeat(50_000) },
      },
      { format: "openai-chat" },
    );
    const read = await handleToolCall(
      toolSet,
      { id: "c", name: "filesystem__read_text_file", arguments: { path: join(temp.path, "big.txt") } },
      { format: "openai-chat", maxChars: 1_000 },
    );
    expect(read.content).toMatch(/^x{1000}\n\[truncated: showing 1,000 of 50,000 characters\. Ask the tool for less/);
  });
});
