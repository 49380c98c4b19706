import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLangChainTools } from "@mcp-tool-adapter/langchain";
import { handleToolCall, toOpenAITools } from "@mcp-tool-adapter/model-tools";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createTempDirectory,
  everythingStdioServer,
  expectNoLeakedProcesses,
  filesystemStdioServer,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { getEncoding } from "js-tiktoken";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createStdioTransport, type StdioServerConfig } from "@mcp-tool-adapter/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCodeMode, generateDeclarations, bindApi, type CodeMode } from "../src/index.js";
import { typeCheck } from "./typecheck.js";

const SERVER_TEST_MS = 60_000;

describe("code mode over real servers (server-everything, server-memory, server-filesystem)", () => {
  let temp: TempDirectory;
  const adapters: MCPToolAdapter[] = [];
  const registry = new ToolRegistry();
  let codeMode: CodeMode;
  const adapterOf = (name: string): MCPToolAdapter | undefined =>
    adapters.find((adapter) => adapter.serverName === name);

  beforeAll(async () => {
    temp = await createTempDirectory("code-mode-");
    const files = join(temp.path, "files");
    await mkdir(files);
    await writeFile(join(files, "notes.txt"), "alpha\nbeta\n");
    const launches = {
      everything: everythingStdioServer(),
      memory: memoryStdioServer(join(temp.path, "memory.jsonl")),
      filesystem: filesystemStdioServer([files]),
    };
    for (const [name, launch] of Object.entries(launches)) {
      const adapter = new MCPToolAdapter(
        { name, transport: "stdio", ...launch },
        { transport: (config) => createStdioTransport(config as StdioServerConfig) },
      );
      adapters.push(adapter);
      await adapter.connect();
      await adapter.registerTools(registry, name);
    }
    codeMode = await createCodeMode(registry);
  }, SERVER_TEST_MS);

  afterAll(async () => {
    codeMode.close();
    await Promise.all(adapters.map((adapter) => adapter.disconnect()));
    await temp.remove();
    await expectNoLeakedProcesses();
  }, SERVER_TEST_MS);

  it(
    "declares every tool of the three servers, and the declarations compile with tsc",
    { timeout: SERVER_TEST_MS },
    async () => {
      const { text, degraded } = await codeMode.declarations();
      expect(degraded).toEqual([]);
      for (const server of ["everything", "memory", "filesystem"]) {
        const tools = adapterOf(server)?.discoveredTools ?? [];
        expect(tools.length).toBeGreaterThan(3);
        for (const tool of tools) expect(text).toContain(`${tool.name.replaceAll("-", "_")}(args`);
      }
      expect(text).toContain("declare const memory: {");
      expect(text).toContain("get_tiny_image(args");
      const program = `
      const graph = await memory.read_graph();
      const found = await memory.search_nodes({ query: "Ada" });
      const listing = await filesystem.list_directory({ path: "/" });
      const echoed = await everything.echo({ message: "hi" });
      export const all = [graph, found, listing, echoed];
    `;
      expect(typeCheck(text, program)).toEqual([]);
      // A wrong argument is a type error: the declarations carry the schemas' requirements.
      expect(typeCheck(text, "await memory.search_nodes({ q: 1 }); export {};").join("\n")).toContain("q");
    },
  );

  it("measures the declarations in tokens against the tools' JSON schemas", async () => {
    const { text } = await codeMode.declarations();
    const encoding = getEncoding("o200k_base");
    const declarationTokens = encoding.encode(text).length;
    const schemaTokens = encoding.encode(JSON.stringify(toOpenAITools(registry))).length;
    console.info(
      `code-mode declarations: ${declarationTokens} tokens; the same tools as OpenAI function tools: ${schemaTokens} tokens`,
    );
    expect(declarationTokens).toBeGreaterThan(0);
    expect(declarationTokens).toBeLessThan(schemaTokens);
  });

  it(
    "a program chains writes and reads on server-memory and returns a summary",
    async () => {
      const result = await codeMode.run(`
        await memory.create_entities({ entities: [
          { name: "Ada", entityType: "person", observations: ["wrote the first program"] },
          { name: "Engine", entityType: "machine", observations: ["analytical"] },
        ] });
        await memory.create_relations({ relations: [{ from: "Ada", to: "Engine", relationType: "programmed" }] });
        await memory.add_observations({ observations: [{ entityName: "Ada", contents: ["born 1815"] }] });
        const graph: any = await memory.read_graph();
        const text = typeof graph === "string" ? graph : JSON.stringify(graph);
        console.log("graph size", text.length);
        return { entities: (text.match(/"entityType"/g) ?? []).length, mentionsAda: text.includes("born 1815") };
      `);
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ ok: true, value: { entities: 2, mentionsAda: true }, toolCalls: 4 });
    },
    SERVER_TEST_MS,
  );

  it(
    "invalid arguments fail the call with the adapter's validation, inside the program",
    async () => {
      const result = await codeMode.run(
        "try { await memory.search_nodes({ query: 42 } as any); } catch (e: any) { return e.errorKind; }",
      );
      expect(result).toMatchObject({ ok: true, value: "validation" });
    },
    SERVER_TEST_MS,
  );

  it(
    "one tool for the model in plain provider formats (model-tools) and in LangChain",
    async () => {
      const [tool] = toOpenAITools(codeMode.registry);
      expect(tool).toMatchObject({ type: "function", function: { name: "code__run" } });
      expect(JSON.stringify(tool)).toContain("declare const filesystem");
      const notes = JSON.stringify(join(temp.path, "files", "notes.txt"));
      const program = `const file: any = await filesystem.read_text_file({ path: ${notes} }); const text = typeof file === "string" ? file : file.content; return text.split("\\n").filter(Boolean).length;`;
      const chat = await handleToolCall(
        codeMode.registry,
        { id: "call-1", name: "code__run", arguments: JSON.stringify({ code: program }) },
        { format: "openai-chat" },
      );
      expect(chat).toMatchObject({ role: "tool", tool_call_id: "call-1", content: "2" });

      const [langChainTool] = createLangChainTools(codeMode.registry);
      expect(langChainTool?.name).toBe("code__run");
      const answer: unknown = await langChainTool?.invoke({
        code: "return (await everything.echo({ message: 'hi' }));",
      });
      expect(String(answer)).toContain("Echo: hi");
      const failure: unknown = await langChainTool?.invoke({ code: "while (true) {}" });
      expect(String(failure)).toContain("cpu_time_limit");
    },
    SERVER_TEST_MS,
  );
});

describe("schemas the generator cannot express", () => {
  it("degrade to unknown with a comment, and the declarations still compile", async () => {
    const registry = new ToolRegistry();
    const base = {
      source: "test",
      sourceMetadata: {},
      checkpointable: false,
      capabilities: { readOnly: true, writes: false },
      handler: () => ({ success: true }),
    };
    registry.register("odd", {
      ...base,
      name: "remote-ref",
      description: "Refers to a schema on the web",
      inputSchema: { $ref: "https://example.com/schema.json" },
    });
    registry.register("odd", {
      ...base,
      name: "broken-ref",
      description: "Refers to nothing",
      inputSchema: { type: "object", properties: { a: { $ref: "#/nope" } } },
    });
    registry.register("odd", {
      ...base,
      name: "fine",
      description: "Multi-line\ndescription with */ inside",
      inputSchema: { type: "object", properties: { __proto__: { type: "string" } } },
    });
    const declarations = await generateDeclarations(bindApi(registry.list()));
    expect(declarations.degraded.map((entry) => entry.tool).sort()).toEqual(["odd.broken_ref", "odd.remote_ref"]);
    expect(declarations.text).toContain("remote_ref(args?: unknown /* schema not expressible:");
    expect(typeCheck(declarations.text)).toEqual([]);
  });
});
