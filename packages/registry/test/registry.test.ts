import { describe, expect, it } from "vitest";
import { RegistryError, ToolRegistry, type RegistryChange, type ToolDefinition } from "../src/index.js";
import { toolDefinition } from "./tool-definition.js";

function thrownBy(action: () => unknown): RegistryError {
  try {
    action();
  } catch (error) {
    if (RegistryError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a RegistryError");
}

describe("register, get, has, list, unregister", () => {
  it("registers a tool under namespace/name with its provenance", () => {
    const registry = new ToolRegistry();
    const entry = registry.register(
      "mcp-github",
      toolDefinition("list_repos", { source: "mcp", sourceMetadata: { server: "github" }, checkpointable: false }),
    );
    expect(entry).toMatchObject({
      name: "mcp-github/list_repos",
      namespace: "mcp-github",
      localName: "list_repos",
      source: "mcp",
      sourceMetadata: { server: "github" },
      checkpointable: false,
      capabilities: { readOnly: true, writes: false },
    });
    expect(registry.get("mcp-github/list_repos")).toBe(entry);
    expect(registry.has("mcp-github/list_repos")).toBe(true);
    expect(registry.has("list_repos")).toBe(false);
    expect(registry.size).toBe(1);
  });

  it("refuses a second tool with the same full name and keeps the first", () => {
    const registry = new ToolRegistry();
    const first = registry.register("ns", toolDefinition("a"));
    const error = thrownBy(() => registry.register("ns", toolDefinition("a", { description: "other" })));
    expect(error.code).toBe("DUPLICATE_TOOL");
    expect(error.message).toContain('"ns/a" is already registered');
    expect(registry.get("ns/a")).toBe(first);
    registry.register("other", toolDefinition("a"));
    expect(registry.size).toBe(2);
  });

  it("lists by namespace, by source, both, or all, in registration order", () => {
    const registry = new ToolRegistry();
    registry.register("a", toolDefinition("one", { source: "mcp" }));
    registry.register("b", toolDefinition("two", { source: "local" }));
    registry.register("a", toolDefinition("three", { source: "local" }));
    const names = (filter?: { namespace?: string; source?: string }): string[] =>
      registry.list(filter).map((tool) => tool.name);
    expect(names()).toEqual(["a/one", "b/two", "a/three"]);
    expect(names({ namespace: "a" })).toEqual(["a/one", "a/three"]);
    expect(names({ source: "local" })).toEqual(["b/two", "a/three"]);
    expect(names({ namespace: "a", source: "local" })).toEqual(["a/three"]);
    expect(names({ namespace: "missing" })).toEqual([]);
    expect(registry.namespaces()).toEqual(["a", "b"]);
  });

  it("unregisters one tool and drops an emptied namespace", () => {
    const registry = new ToolRegistry();
    registry.register("a", toolDefinition("one"));
    expect(registry.unregister("a/one")).toBe(true);
    expect(registry.unregister("a/one")).toBe(false);
    expect(registry.has("a/one")).toBe(false);
    expect(registry.list({ namespace: "a" })).toEqual([]);
    expect(registry.namespaces()).toEqual([]);
    expect(registry.size).toBe(0);
  });

  it("unregisters a whole namespace and reports what went", () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("a", [toolDefinition("one"), toolDefinition("two")]);
    registry.register("b", toolDefinition("three"));
    expect(registry.unregisterNamespace("a")).toEqual({
      namespace: "a",
      added: [],
      removed: ["a/one", "a/two"],
      changed: [],
    });
    expect(registry.unregisterNamespace("a")).toEqual({ namespace: "a", added: [], removed: [], changed: [] });
    expect(registry.list().map((tool) => tool.name)).toEqual(["b/three"]);
  });
});

describe("frozen snapshots", () => {
  it("cannot be changed through the definition that was passed in", () => {
    const registry = new ToolRegistry();
    const definition = toolDefinition("t", {
      inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      sourceMetadata: { server: "s", tags: ["x"] },
      capabilities: { readOnly: true, writes: false },
    });
    registry.register("ns", definition);
    definition.description = "changed";
    definition.name = "renamed";
    (definition.inputSchema.required as string[]).push("evil");
    (definition.inputSchema.properties as Record<string, Record<string, unknown>>).q!.type = "number";
    (definition.sourceMetadata.tags as string[]).push("y");
    definition.capabilities.writes = true;

    const entry = registry.get("ns/t")!;
    expect(entry.description).toBe("the t tool");
    expect(entry.inputSchema).toEqual({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    expect(entry.sourceMetadata).toEqual({ server: "s", tags: ["x"] });
    expect(entry.capabilities).toEqual({ readOnly: true, writes: false });
  });

  it("cannot be changed through the entry the registry hands out", () => {
    const registry = new ToolRegistry();
    const entry = registry.register("ns", toolDefinition("t"));
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry.inputSchema.properties)).toBe(true);
    expect(Object.isFrozen(entry.capabilities)).toBe(true);
    expect(Object.isFrozen(entry.sourceMetadata)).toBe(true);
    expect(() => {
      (entry as { description: string }).description = "x";
    }).toThrow(TypeError);
    expect(() => {
      entry.inputSchema.type = "string";
    }).toThrow(TypeError);
    expect(registry.get("ns/t")?.inputSchema.type).toBe("object");
  });

  it("copies metadata with cycles and refuses metadata that cannot be copied", () => {
    const registry = new ToolRegistry();
    const cyclic: Record<string, unknown> = { name: "c" };
    cyclic.self = cyclic;
    const entry = registry.register("ns", toolDefinition("cyclic", { sourceMetadata: cyclic }));
    expect(entry.sourceMetadata.self).toBe(entry.sourceMetadata);
    expect(entry.sourceMetadata).not.toBe(cyclic);

    const error = thrownBy(() =>
      registry.register("ns", toolDefinition("fn", { sourceMetadata: { callback: () => 1 } })),
    );
    expect(error.code).toBe("INVALID_TOOL");
    expect(error.message).toContain("its sourceMetadata cannot be copied");
    expect(error.cause).toBeDefined();
    expect(registry.has("ns/fn")).toBe(false);
  });
});

describe("definition checks", () => {
  const bad: [label: string, fields: Record<string, unknown>, message: string][] = [
    ["a handler that is not a function", { handler: "run" }, "its handler must be a function (got string)"],
    [
      "a description that is not a string",
      { description: undefined },
      "its description must be a string (got undefined)",
    ],
    ["an array inputSchema", { inputSchema: [] }, "its inputSchema must be an object (got array)"],
    ["null capabilities", { capabilities: null }, "its capabilities must be an object (got null)"],
    ["capabilities without booleans", { capabilities: { readOnly: "yes", writes: false } }, "must be booleans"],
    [
      "read-only and writing capabilities",
      { capabilities: { readOnly: true, writes: true } },
      "both readOnly and writes",
    ],
    ["an empty source", { source: "" }, "its source must be a non-empty string"],
    [
      "sourceMetadata that is not an object",
      { sourceMetadata: 3 },
      "its sourceMetadata must be an object (got number)",
    ],
    [
      "checkpointable that is not a boolean",
      { checkpointable: "no" },
      "its checkpointable must be a boolean (got string)",
    ],
  ];

  it.each(bad)("refuses %s with INVALID_TOOL", (_label, fields, message) => {
    const registry = new ToolRegistry();
    const error = thrownBy(() => registry.register("ns", { ...toolDefinition("t"), ...fields }));
    expect(error.code).toBe("INVALID_TOOL");
    expect(error.message).toContain('Cannot register tool "t" in namespace "ns"');
    expect(error.message).toContain(message);
    expect(registry.size).toBe(0);
  });

  it("refuses something that is not a definition at all", () => {
    const registry = new ToolRegistry();
    expect(thrownBy(() => registry.register("ns", null as unknown as ToolDefinition)).code).toBe("INVALID_TOOL");
    expect(thrownBy(() => registry.replaceNamespace("ns", "tools" as unknown as ToolDefinition[])).code).toBe(
      "INVALID_TOOL",
    );
  });

  it("marks its errors for isInstance across copies of the package", () => {
    const error = thrownBy(() => new ToolRegistry().register("", toolDefinition("t")));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("RegistryError");
    expect((error as unknown as Record<symbol, unknown>)[Symbol.for("mcp-tool-adapter.error")]).toBe(true);
    expect(RegistryError.isInstance(new Error("x"))).toBe(false);
    expect(RegistryError.isInstance(null)).toBe(false);
  });
});

describe("replaceNamespace", () => {
  it("swaps the namespace's tools and reports added, removed and changed names", () => {
    const registry = new ToolRegistry();
    registry.register("other", toolDefinition("keep"));
    expect(registry.replaceNamespace("gh", [toolDefinition("list_repos"), toolDefinition("create_issue")])).toEqual({
      namespace: "gh",
      added: ["gh/list_repos", "gh/create_issue"],
      removed: [],
      changed: [],
    });

    const change = registry.replaceNamespace("gh", [
      toolDefinition("list_repos", { description: "now paginated" }),
      toolDefinition("create_issue"),
      toolDefinition("close_issue"),
    ]);
    expect(change).toEqual({ namespace: "gh", added: ["gh/close_issue"], removed: [], changed: ["gh/list_repos"] });
    expect(registry.get("gh/list_repos")?.description).toBe("now paginated");

    expect(registry.replaceNamespace("gh", [toolDefinition("close_issue")])).toEqual({
      namespace: "gh",
      added: [],
      removed: ["gh/list_repos", "gh/create_issue"],
      changed: [],
    });
    expect(
      registry
        .list()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(["gh/close_issue", "other/keep"]);
    expect(registry.size).toBe(2);
  });

  it("replaces entries whose only difference is the handler, without calling that a change", async () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("ns", [toolDefinition("t", { handler: () => ({ success: true, data: "old" }) })]);
    const change = registry.replaceNamespace("ns", [
      toolDefinition("t", { handler: () => ({ success: true, data: "new" }) }),
    ]);
    expect(change).toEqual({ namespace: "ns", added: [], removed: [], changed: [] });
    expect((await registry.call("ns/t")).data).toBe("new");
  });

  it.each<[string, Partial<ToolDefinition>]>([
    ["inputSchema", { inputSchema: { type: "object", required: ["x"] } }],
    ["capabilities", { capabilities: { readOnly: false, writes: true } }],
    ["source", { source: "mcp" }],
    ["sourceMetadata", { sourceMetadata: { origin: "elsewhere" } }],
    ["checkpointable", { checkpointable: false }],
  ])("calls a different %s a change", (_field, fields) => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("ns", [toolDefinition("t")]);
    expect(registry.replaceNamespace("ns", [toolDefinition("t", fields)]).changed).toEqual(["ns/t"]);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, boolean]>([
    ["equal Dates", { at: new Date(5) }, { at: new Date(5) }, false],
    ["different Dates", { at: new Date(5) }, { at: new Date(6) }, true],
    ["a Date and a string", { at: new Date(5) }, { at: "5" }, true],
    ["an array and an object with the same keys", { tags: ["x"] }, { tags: { 0: "x" } }, true],
    ["an extra key", { a: 1 }, { a: 1, b: undefined }, true],
    ["a renamed key", { a: 1 }, { b: 1 }, true],
    ["null and an object", { a: null }, { a: {} }, true],
    ["equal nested data", { a: { b: [1, { c: "d" }] } }, { a: { b: [1, { c: "d" }] } }, false],
  ])("compares sourceMetadata structurally: %s", (_label, before, after, changed) => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("ns", [toolDefinition("t", { sourceMetadata: before })]);
    expect(registry.replaceNamespace("ns", [toolDefinition("t", { sourceMetadata: after })]).changed).toEqual(
      changed ? ["ns/t"] : [],
    );
  });

  it("compares cyclic metadata without looping", () => {
    const cyclic = (): Record<string, unknown> => {
      const value: Record<string, unknown> = { name: "c" };
      value.self = value;
      return value;
    };
    const registry = new ToolRegistry();
    registry.replaceNamespace("ns", [toolDefinition("t", { sourceMetadata: cyclic() })]);
    expect(registry.replaceNamespace("ns", [toolDefinition("t", { sourceMetadata: cyclic() })]).changed).toEqual([]);
  });

  it("is atomic: an invalid tool anywhere in the list leaves the old namespace intact", () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("gh", [toolDefinition("a"), toolDefinition("b")]);
    const before = registry.list({ namespace: "gh" });
    const changes: RegistryChange[] = [];
    registry.subscribe((change) => changes.push(change));

    const invalidName = thrownBy(() =>
      registry.replaceNamespace("gh", [toolDefinition("c"), toolDefinition("../escape")]),
    );
    expect(invalidName.code).toBe("INVALID_NAME");
    expect(invalidName.message).toContain('"../escape"');

    const invalidTool = thrownBy(() =>
      registry.replaceNamespace("gh", [
        toolDefinition("c"),
        toolDefinition("d", { handler: undefined as unknown as ToolDefinition["handler"] }),
      ]),
    );
    expect(invalidTool.code).toBe("INVALID_TOOL");

    const duplicate = thrownBy(() => registry.replaceNamespace("gh", [toolDefinition("c"), toolDefinition("c")]));
    expect(duplicate.code).toBe("DUPLICATE_TOOL");
    expect(duplicate.message).toContain('tool "c" appears twice');

    expect(registry.list({ namespace: "gh" })).toEqual(before);
    expect(registry.has("gh/c")).toBe(false);
    expect(registry.size).toBe(2);
    expect(changes).toEqual([]);
  });

  it("empties a namespace when given no tools", () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("gh", [toolDefinition("a")]);
    expect(registry.replaceNamespace("gh", []).removed).toEqual(["gh/a"]);
    expect(registry.namespaces()).toEqual([]);
    expect(registry.size).toBe(0);
  });

  it("lets listeners observe only the complete new state", () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("gh", [toolDefinition("old1"), toolDefinition("old2")]);
    const seen: string[][] = [];
    registry.subscribe(() => seen.push(registry.list({ namespace: "gh" }).map((tool) => tool.localName)));
    registry.replaceNamespace("gh", [toolDefinition("new1"), toolDefinition("new2"), toolDefinition("new3")]);
    expect(seen).toEqual([["new1", "new2", "new3"]]);
    expect(registry.list().map((tool) => tool.name)).toEqual(["gh/new1", "gh/new2", "gh/new3"]);
  });

  it("keeps tools registered one by one and by replacement in one namespace index", () => {
    const registry = new ToolRegistry();
    registry.replaceNamespace("ns", [toolDefinition("a")]);
    registry.register("ns", toolDefinition("b"));
    expect(registry.list({ namespace: "ns" }).map((tool) => tool.localName)).toEqual(["a", "b"]);
    expect(registry.replaceNamespace("ns", [toolDefinition("c")]).removed).toEqual(["ns/a", "ns/b"]);
  });
});

describe("at 10,000 tools", () => {
  it("finds every tool by name and lists one namespace exactly", () => {
    const registry = new ToolRegistry();
    for (let namespace = 0; namespace < 100; namespace += 1) {
      registry.replaceNamespace(
        `ns${namespace}`,
        Array.from({ length: 100 }, (_, index) => toolDefinition(`tool${index}`)),
      );
    }
    expect(registry.size).toBe(10_000);
    for (let index = 0; index < 10_000; index += 1) {
      expect(registry.has(`ns${index % 100}/tool${Math.floor(index / 100)}`)).toBe(true);
    }
    const listed = registry.list({ namespace: "ns42" });
    expect(listed).toHaveLength(100);
    expect(listed.every((tool) => tool.namespace === "ns42")).toBe(true);
    expect(registry.replaceNamespace("ns42", []).removed).toHaveLength(100);
    expect(registry.size).toBe(9_900);
  });
});
