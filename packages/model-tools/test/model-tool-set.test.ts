import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { createSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { describe, expect, it } from "vitest";
import { createModelToolSet, needsApproval, type ModelTool, type ToolSource } from "../src/index.js";
import { createNotesRegistry } from "./registry-fixture.js";

describe("createModelToolSet", () => {
  it("names every registry tool for models and finds it back", () => {
    const { registry } = createNotesRegistry();
    const set = createModelToolSet(registry);
    expect(set.tools.map((tool) => tool.modelName).sort()).toEqual([
      "notes__append",
      "notes__delete_all",
      "notes__mystery",
      "notes__search",
    ]);
    const search = set.get("notes__search");
    expect(search).toMatchObject({
      registryName: "notes/search",
      description: "The search tool",
      capabilities: { readOnly: true, writes: false },
    });
    expect(search?.inputSchema).toBe(registry.get("notes/search")?.inputSchema);
    expect(search?.registered).toBe(registry.get("notes/search"));
    expect(set.get("notes/search")).toBeUndefined();
    expect(set.names.toRegistryName("notes__delete_all")).toBe("notes/delete.all");
  });

  it("keeps only the tools the filter accepts, and passes name options on", () => {
    const { registry } = createNotesRegistry();
    const set = createModelToolSet(registry, {
      filter: (tool) => tool.capabilities.readOnly,
      names: { separator: "-" },
    });
    expect(set.tools.map((tool) => tool.modelName)).toEqual(["notes-search"]);
  });

  it("keeps only a toolset's tools, given as patterns or by name from a config's toolsets, and with the filter", () => {
    const { registry } = createNotesRegistry();
    const names = (set: { tools: readonly ModelTool[] }) => set.tools.map((tool) => tool.registryName).sort();
    expect(names(createModelToolSet(registry, { toolset: ["notes/*", "!notes/delete*"] }))).toEqual([
      "notes/append",
      "notes/mystery",
      "notes/search",
    ]);
    const toolsets = { reader: ["notes/search", "notes/mystery"] };
    expect(names(createModelToolSet(registry, { toolset: { name: "reader", toolsets } }))).toEqual([
      "notes/mystery",
      "notes/search",
    ]);
    expect(
      names(
        createModelToolSet(registry, {
          toolset: { name: "reader", toolsets },
          filter: (tool) => tool.capabilities.readOnly,
        }),
      ),
    ).toEqual(["notes/search"]);
    expect(() => createModelToolSet(registry, { toolset: { name: "ops", toolsets } })).toThrow(
      expect.objectContaining({ code: "UNKNOWN_TOOLSET", message: 'No toolset "ops"; the toolsets are "reader".' }),
    );
  });

  it("executes through the source with restored arguments and the caller's signal", async () => {
    const { registry, calls } = createNotesRegistry();
    const search = createModelToolSet(registry).get("notes__search")!;
    const controller = new AbortController();
    const result = await search.execute(
      { query: "ada", limit: null },
      { signal: controller.signal, dialect: "openai-strict" },
    );
    expect(result).toMatchObject({ success: true, data: { content: [{ type: "text", text: "found ada" }] } });
    expect(calls).toEqual([{ tool: "search", args: { query: "ada" }, signal: controller.signal }]);
  });

  it("returns every validation problem as a result and does not call the tool", async () => {
    const { registry, calls } = createNotesRegistry();
    const search = createModelToolSet(registry).get("notes__search")!;
    const result = await search.execute({ query: "", limit: 0 });
    expect(result.success).toBe(false);
    expect(result.errorKind).toBe("validation");
    expect(result.error).toContain('invalid arguments for tool "notes/search"');
    expect(result.error).toContain("/query");
    expect(result.error).toContain("/limit");
    expect(calls).toEqual([]);
    expect(await search.execute("query=ada")).toMatchObject({
      errorKind: "validation",
      error: 'invalid arguments for tool "notes/search": the arguments must be a JSON object, got string',
    });
    expect(await search.execute([1])).toMatchObject({
      errorKind: "validation",
      error: expect.stringContaining("got an array") as unknown,
    });
  });

  it("leaves validation of MCP tools to the adapter (it validates every call), unless told otherwise", async () => {
    const registry = new ToolRegistry();
    const seen: unknown[] = [];
    registry.register("srv", {
      name: "t",
      description: "",
      inputSchema: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a"] },
      capabilities: { readOnly: true, writes: false },
      source: "mcp",
      sourceMetadata: {},
      checkpointable: false,
      handler: (args) => {
        seen.push(args);
        return { success: true };
      },
    });
    await createModelToolSet(registry).get("srv__t")!.execute({ b: null });
    expect(seen).toEqual([{}]);
    const checked = await createModelToolSet(registry, { validateArguments: () => true })
      .get("srv__t")!
      .execute({});
    expect(checked).toMatchObject({ success: false, errorKind: "validation" });
    expect(seen).toHaveLength(1);
  });

  it("uses the validator it is given", async () => {
    const { registry } = createNotesRegistry();
    const validator = createSchemaValidator();
    const set = createModelToolSet(registry, { validator });
    await set.get("notes__search")!.execute({ query: "x" });
    expect(validator.cacheSize).toBe(1);
  });

  it("turns a source that throws into a handler_error result", async () => {
    const { registry } = createNotesRegistry();
    const throwing: ToolSource = {
      list: (filter) => registry.list(filter),
      subscribe: (listener) => registry.subscribe(listener),
      call: () => Promise.reject(new Error("socket closed")),
    };
    const result = await createModelToolSet(throwing).get("notes__append")!.execute({ text: "x" });
    expect(result).toEqual({
      success: false,
      errorKind: "handler_error",
      error: 'tool "notes/append" failed: socket closed',
      durationMs: 0,
    });
  });

  it("converts the schema once per dialect", () => {
    const { registry } = createNotesRegistry();
    const search = createModelToolSet(registry).get("notes__search")!;
    expect(search.schemaFor("openai-strict")).toBe(search.schemaFor("openai-strict"));
    expect(search.schemaFor("openai-strict").strict).toBe(true);
    expect(search.schemaFor("gemini")).not.toBe(search.schemaFor("openai-strict"));
  });

  it("takes a snapshot: a registry change needs a new set", () => {
    const registry = new ToolRegistry();
    const before = createModelToolSet(registry);
    registry.register("x", {
      name: "y",
      description: "",
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: () => ({ success: true }),
    });
    expect(before.tools).toHaveLength(0);
    expect(createModelToolSet(registry).tools.map((tool) => tool.modelName)).toEqual(["x__y"]);
  });
});

describe("needsApproval", () => {
  const tools = (): Record<string, ModelTool> => {
    const set = createModelToolSet(createNotesRegistry().registry);
    return Object.fromEntries(set.tools.map((tool) => [tool.registered.localName, tool]));
  };

  it("'never' asks for nothing; 'writes' asks for every tool not known to be read-only", async () => {
    const { search, append, mystery } = tools();
    expect(await needsApproval("never", append!, {})).toBe(false);
    expect(await needsApproval("writes", search!, {})).toBe(false);
    expect(await needsApproval("writes", append!, {})).toBe(true);
    expect(await needsApproval("writes", mystery!, {})).toBe(true);
  });

  it("'destructive' asks for writing tools not known to be harmless", async () => {
    const { search, append, mystery } = tools();
    const deleteAll = tools()["delete.all"]!;
    expect(await needsApproval("destructive", deleteAll, {})).toBe(true);
    expect(await needsApproval("destructive", append!, {})).toBe(false);
    expect(await needsApproval("destructive", search!, {})).toBe(false);
    expect(await needsApproval("destructive", mystery!, {})).toBe(false);
  });

  it("asks a policy function, and fails closed when it throws or the policy is unknown", async () => {
    const { search } = tools();
    const seen: unknown[] = [];
    expect(
      await needsApproval(
        (tool: ModelTool, args) => {
          seen.push([tool.modelName, args]);
          return args.limit === 1000;
        },
        search!,
        { limit: 1000 },
      ),
    ).toBe(true);
    expect(seen).toEqual([["notes__search", { limit: 1000 }]]);
    expect(await needsApproval(() => Promise.resolve(false), search!, {})).toBe(false);
    expect(
      await needsApproval(
        () => {
          throw new Error("policy bug");
        },
        search!,
        {},
      ),
    ).toBe(true);
    expect(await needsApproval("sometimes" as "never", search!, {})).toBe(true);
  });
});
