import { createSchemaValidator, type SchemaValidator } from "@mcp-tool-adapter/schema-validation";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { markParsedFromWire } from "@mcp-tool-adapter/core/value-rules";
import { describe, expect, it } from "vitest";
import { MCPDiscoveryError, MCPNotConnectedError, MCPToolAdapter, type MCPToolAdapterOptions } from "../src/index.js";
import { connectedHarness, createHarness, STDIO_CONFIG } from "./helpers.js";

const tools = (...names: string[]) => names.map((name) => ({ name }));

/** A server whose tools/list answers with whatever `pages` says for each cursor. */
function pagingServerAdapter(
  page: (cursor: string | undefined, call: number) => unknown,
  options: MCPToolAdapterOptions = {},
) {
  let calls = 0;
  const adapter = new MCPToolAdapter(STDIO_CONFIG, {
    ...options,
    transport: async () => {
      const server = new McpServer({ name: "pager", version: "1" }, { capabilities: { tools: {} } });
      server.server.setRequestHandler(
        ListToolsRequestSchema,
        (request) => page(request.params?.cursor, ++calls) as never,
      );
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      return client;
    },
  });
  return { adapter, calls: () => calls };
}

function countingValidator(): SchemaValidator & { compiles: number } {
  const inner = createSchemaValidator();
  const counting = {
    compiles: 0,
    compile(schema: unknown) {
      counting.compiles += 1;
      return inner.compile(schema);
    },
    validate: (schema: unknown, value: unknown) => inner.validate(schema, value),
    get cacheSize() {
      return inner.cacheSize;
    },
  };
  return counting;
}

describe("discoverTools", () => {
  it("returns every tool with name, description and input schema", async () => {
    const { adapter } = await connectedHarness({
      tools: [
        {
          name: "tool_0",
          description: "first",
          title: "Tool zero",
          inputSchema: { type: "object", properties: { a: { type: "string" } } },
          outputSchema: { type: "object" },
          annotations: { readOnlyHint: true },
        },
        { name: "tool_1" },
        { name: "tool_2" },
      ],
    });
    const discovered = await adapter.discoverTools();
    expect(discovered).toHaveLength(3);
    expect(discovered[0]).toEqual({
      name: "tool_0",
      title: "Tool zero",
      description: "first",
      inputSchema: { type: "object", properties: { a: { type: "string" } } },
      outputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
    });
    expect(adapter.discoveredTools).toHaveLength(3);
    await adapter.disconnect();
  });

  it("returns an empty list for a server with no tools", async () => {
    const { adapter } = await connectedHarness({ tools: [] });
    expect(await adapter.discoverTools()).toEqual([]);
    expect(adapter.discoveredTools).toEqual([]);
    await adapter.disconnect();
  });

  it("caches frozen descriptors in a frozen array, detached from the server's objects", async () => {
    const schema = { type: "object" as const, properties: { a: { type: "string" } } };
    const { adapter } = await connectedHarness({ tools: [{ name: "t", inputSchema: schema }] });
    await adapter.discoverTools();
    const cached = adapter.discoveredTools;
    expect(Object.isFrozen(cached)).toBe(true);
    expect(Object.isFrozen(cached[0])).toBe(true);
    expect(Object.isFrozen(cached[0]!.inputSchema)).toBe(true);
    expect(Object.isFrozen(schema)).toBe(false);
    expect(adapter.discoveredTools).toBe(cached);
    await adapter.disconnect();
  });

  it("freezes a listing its transport parsed from the wire in place, and copies an unmarked one", async () => {
    // What our stdio transport does: each message parsed from the bytes read, its result marked.
    const schema = { type: "object", properties: { a: { type: "string", enum: ["x", "y"] } } };
    const delivered: unknown[] = [];
    const adapterOver = (mark: boolean) =>
      new MCPToolAdapter(STDIO_CONFIG, {
        transport: async () => {
          const server = new McpServer({ name: "wire", version: "1" }, { capabilities: { tools: {} } });
          server.server.setRequestHandler(ListToolsRequestSchema, () => ({
            tools: [{ name: "t", inputSchema: schema }],
          }));
          const [client, serverSide] = InMemoryTransport.createLinkedPair();
          await server.connect(serverSide);
          const wire: Transport = {
            start: () => client.start(),
            send: (message, options) => client.send(message, options),
            close: () => client.close(),
          };
          client.onmessage = (message) => {
            const parsed = JSON.parse(JSON.stringify(message)) as { result?: { tools?: { inputSchema: unknown }[] } };
            if (mark) markParsedFromWire(parsed.result);
            const listed = parsed.result?.tools?.[0]?.inputSchema;
            if (listed !== undefined) delivered.push(listed);
            wire.onmessage?.(parsed as never);
          };
          client.onclose = () => wire.onclose?.();
          client.onerror = (error) => wire.onerror?.(error);
          return wire;
        },
      });
    const marked = adapterOver(true);
    await marked.connect();
    const [kept] = await marked.discoverTools();
    expect(kept!.inputSchema).toBe(delivered[0]);
    expect(Object.isFrozen(kept!.inputSchema) && Object.isFrozen(kept!.inputSchema.properties)).toBe(true);
    await marked.disconnect();

    const unmarked = adapterOver(false);
    await unmarked.connect();
    const [copied] = await unmarked.discoverTools();
    expect(copied!.inputSchema).toEqual(delivered[1]);
    expect(copied!.inputSchema).not.toBe(delivered[1]);
    expect(Object.isFrozen(delivered[1])).toBe(false);
    expect(Object.isFrozen(schema)).toBe(false);
    await unmarked.disconnect();
  });

  it("throws MCPNotConnectedError when not connected", async () => {
    const { adapter } = createHarness({ tools: tools("a") });
    const error = await adapter.discoverTools().catch((e: unknown) => e);
    expect(MCPNotConnectedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("not connected");
  });

  it("follows pagination to the end", async () => {
    const { adapter, server } = await connectedHarness({ tools: tools("a", "b", "c", "d", "e"), pageSize: 2 });
    expect((await adapter.discoverTools()).map((t) => t.name)).toEqual(["a", "b", "c", "d", "e"]);
    await adapter.disconnect();
    await server.close();
  });

  it("stops on a repeated cursor instead of looping forever", async () => {
    const { adapter, calls } = pagingServerAdapter(() => ({
      tools: [{ name: "x", inputSchema: { type: "object" } }],
      nextCursor: "same",
    }));
    await adapter.connect();
    const error = await adapter.discoverTools().catch((e: unknown) => e);
    expect(MCPDiscoveryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('cursor "same" a second time');
    expect(calls()).toBe(2);
    await adapter.disconnect();
  });

  it("stops after maxListPages pages", async () => {
    const { adapter, calls } = pagingServerAdapter(
      (_cursor, call) => ({ tools: [{ name: `t${call}`, inputSchema: { type: "object" } }], nextCursor: String(call) }),
      { maxListPages: 5 },
    );
    await adapter.connect();
    await expect(adapter.discoverTools()).rejects.toThrow(/stopped after 5 pages/);
    expect(calls()).toBe(5);
    await adapter.disconnect();
  });

  it("reports a tools/list error as MCPDiscoveryError", async () => {
    const { adapter } = pagingServerAdapter(() => {
      throw new Error("listing exploded");
    });
    await adapter.connect();
    await expect(adapter.discoverTools()).rejects.toThrow(/tools\/list returned an error: .*listing exploded/);
    await adapter.disconnect();
  });

  it("skips listed tools without a name and keeps the rest", async () => {
    const warnings: string[] = [];
    const { adapter } = pagingServerAdapter(
      () => ({
        tools: [
          { description: "nameless", inputSchema: { type: "object" } },
          { name: "ok", inputSchema: { type: "object" } },
          { name: "ok" },
        ],
      }),
      { logger: { warn: (m: string) => warnings.push(m) } },
    );
    await adapter.connect();
    // The SDK's listing schema would reject the whole page; the adapter drops only the bad entries.
    expect((await adapter.discoverTools()).map((t) => t.name)).toEqual(["ok"]);
    expect(warnings.join("\n")).toMatch(/without a name[\s\S]*"ok" twice/);
    await adapter.disconnect();
  });

  it("finds a tool listed twice across pages, and logs nothing of a discovery that fails on a later page", async () => {
    const warnings: string[] = [];
    let failSecondPage = false;
    const { adapter } = pagingServerAdapter(
      (cursor) => {
        if (cursor === undefined) return { tools: [{ description: "nameless" }, { name: "a" }], nextCursor: "2" };
        if (failSecondPage) throw new Error("page two exploded");
        return { tools: [{ name: "a" }, { name: "b" }] };
      },
      { logger: { warn: (m: string) => warnings.push(m) } },
    );
    await adapter.connect();
    expect((await adapter.discoverTools()).map((t) => t.name)).toEqual(["a", "b"]);
    expect(warnings).toHaveLength(2);
    expect(warnings.join("\n")).toMatch(/without a name[\s\S]*"a" twice/);
    warnings.length = 0;
    failSecondPage = true;
    await adapter.reconnect();
    await expect(adapter.discoverTools()).rejects.toThrow(/page two exploded/);
    expect(warnings).toEqual([]);
    await adapter.disconnect();
  });

  it("include keeps only the named tools, exclude drops them", async () => {
    const { adapter } = await connectedHarness({ tools: tools("tool_0", "tool_1", "tool_2") });
    expect((await adapter.discoverTools({ include: ["tool_0"] })).map((t) => t.name)).toEqual(["tool_0"]);
    expect(adapter.discoveredTools).toHaveLength(1);
    expect((await adapter.discoverTools({ exclude: ["tool_0"] })).map((t) => t.name)).toEqual(["tool_1", "tool_2"]);
    expect(adapter.discoveredTools).toHaveLength(2);
    expect(await adapter.discoverTools({ include: ["tool_0", "tool_1"], exclude: ["tool_1"] })).toHaveLength(1);
    expect(await adapter.discoverTools({ include: [] })).toHaveLength(3);
    await adapter.disconnect();
  });

  it("filters accept glob patterns", async () => {
    const { adapter } = await connectedHarness({ tools: tools("get_user", "get_repo", "set_user", "list.items", "x") });
    expect((await adapter.discoverTools({ include: ["get_*"] })).map((t) => t.name)).toEqual(["get_user", "get_repo"]);
    expect((await adapter.discoverTools({ exclude: ["*_user"] })).map((t) => t.name)).toEqual([
      "get_repo",
      "list.items",
      "x",
    ]);
    expect((await adapter.discoverTools({ include: ["list.*", "?"] })).map((t) => t.name)).toEqual(["list.items", "x"]);
    // "." and "-" are literal, not regex syntax
    expect((await adapter.discoverTools({ include: ["get-*", "list.*"] })).map((t) => t.name)).toEqual(["list.items"]);
    expect(await adapter.discoverTools({ include: ["list.item?x"] })).toEqual([]);
    await adapter.disconnect();
  });

  it("rejects a malformed filter with MCPConfigError", async () => {
    const { adapter } = await connectedHarness({ tools: tools("a") });
    await expect(adapter.discoverTools({ include: "a" as never })).rejects.toThrow(/include.*must be an array/);
    await adapter.disconnect();
  });

  it("a tool with an invalid input schema is discovered; invoking it is a validation error naming the schema", async () => {
    const { adapter, server } = await connectedHarness({
      tools: [
        { name: "broken", inputSchema: { type: "object", properties: { a: { type: "no-such-type" } } } as never },
        { name: "fine" },
      ],
    });
    expect((await adapter.discoverTools()).map((t) => t.name)).toEqual(["broken", "fine"]);
    const result = await adapter.invoke("broken", { a: 1 });
    expect(result).toMatchObject({ success: false, errorKind: "validation" });
    expect(result.error).toContain("validation");
    expect(result.error).toContain('input schema of tool "broken" is invalid');
    expect(server.callCount).toBe(0);
    expect((await adapter.invoke("fine", {})).success).toBe(true);
    await adapter.disconnect();
  });

  it("compiles each input schema once, not per invoke", async () => {
    const validator = countingValidator();
    const { adapter } = await connectedHarness(
      { tools: [{ name: "a", inputSchema: { type: "object", properties: { n: { type: "number" } } } }, { name: "b" }] },
      { validator },
    );
    await adapter.discoverTools();
    for (let i = 0; i < 20; i += 1) {
      expect((await adapter.invoke("a", { n: i })).success).toBe(true);
      expect((await adapter.invoke("b", {})).success).toBe(true);
    }
    expect(validator.compiles).toBe(2);
    await adapter.discoverTools(); // an unchanged tool keeps its compiled schema
    await adapter.invoke("a", { n: 1 });
    expect(validator.compiles).toBe(2);
    await adapter.disconnect();
  });
});

describe("discovering again", () => {
  const schema = { type: "object", properties: { q: { type: "string" }, n: { enum: [1, 2] } }, required: ["q"] };
  /** Each case: the tool as first listed, then as listed again; the same descriptor is kept only when nothing the adapter reads changed. */
  const cases: [string, Record<string, unknown>, Record<string, unknown>, "kept" | "replaced"][] = [
    ["unchanged", { inputSchema: schema, title: "T" }, { inputSchema: schema, title: "T" }, "kept"],
    [
      "keys in another order",
      { inputSchema: schema, annotations: { readOnlyHint: true, title: "a" } },
      {
        inputSchema: { required: ["q"], properties: { n: { enum: [1, 2] }, q: { type: "string" } }, type: "object" },
        annotations: { title: "a", readOnlyHint: true },
      },
      "kept",
    ],
    ["no input schema either time", {}, {}, "kept"],
    ["an extra field the adapter does not read", { inputSchema: schema }, { inputSchema: schema, icons: [] }, "kept"],
    ["title changed", { inputSchema: schema, title: "T" }, { inputSchema: schema, title: "U" }, "replaced"],
    ["title removed", { inputSchema: schema, title: "T" }, { inputSchema: schema }, "replaced"],
    ["description changed", { description: "a" }, { description: "b" }, "replaced"],
    ["an empty description added", {}, { description: "" }, "kept"],
    ["input schema given where there was none", {}, { inputSchema: { type: "object", properties: {} } }, "replaced"],
    [
      "an array item changed",
      { inputSchema: schema },
      { inputSchema: { ...schema, properties: { ...schema.properties, n: { enum: [1, 3] } } } },
      "replaced",
    ],
    [
      "a key added deep down",
      { inputSchema: schema },
      { inputSchema: { ...schema, properties: { ...schema.properties, q: { type: "string", minLength: 1 } } } },
      "replaced",
    ],
    [
      "a key removed deep down",
      { inputSchema: { ...schema, properties: { ...schema.properties, q: { type: "string", minLength: 1 } } } },
      { inputSchema: schema },
      "replaced",
    ],
    [
      "output schema added",
      { inputSchema: schema },
      { inputSchema: schema, outputSchema: { type: "object" } },
      "replaced",
    ],
    [
      "annotations changed",
      { annotations: { readOnlyHint: true } },
      { annotations: { readOnlyHint: false } },
      "replaced",
    ],
    ["now needs a task", {}, { execution: { taskSupport: "required" } }, "replaced"],
    ["the same unusable input schema", { inputSchema: [] }, { inputSchema: [] }, "kept"],
    ["an unusable input schema, unusable another way", { inputSchema: [] }, { inputSchema: "object" }, "replaced"],
    ["an unusable input schema made usable", { inputSchema: [] }, { inputSchema: { type: "object" } }, "replaced"],
  ];

  it.each(cases)("%s: the descriptor is %s", async (_case, first, second, expected) => {
    const { adapter } = pagingServerAdapter((_cursor, call) => ({
      tools: [{ name: "t", ...(call === 1 ? first : second) }],
    }));
    await adapter.connect();
    const [before] = await adapter.discoverTools();
    const [after] = await adapter.discoverTools();
    if (expected === "kept") expect(after).toBe(before);
    else {
      expect(after).not.toBe(before);
      expect(after?.title).toBe(second.title);
      expect(after?.description).toBe(second.description ?? "");
    }
    await adapter.disconnect();
  });
});

describe("tools/list_changed", () => {
  it("refreshes the cache and reports added, removed and changed tools", async () => {
    const events: unknown[] = [];
    const { adapter, server } = await connectedHarness({
      tools: [{ name: "keep" }, { name: "drop" }, { name: "edit", description: "v1" }],
    });
    await adapter.discoverTools();
    const changed = new Promise<void>((resolve) => {
      const unsubscribe = adapter.onToolsChanged((event) => {
        events.push(event);
        if (adapter.discoveredTools.some((t) => t.name === "new")) {
          unsubscribe();
          resolve();
        }
      });
    });
    await server.removeTool("drop");
    await server.addTool({ name: "edit", description: "v2" });
    await server.addTool({ name: "new" });
    await changed;
    expect(adapter.discoveredTools.map((t) => [t.name, t.description])).toEqual([
      ["keep", "Test tool keep"],
      ["edit", "v2"],
      ["new", "Test tool new"],
    ]);
    const merged = { added: new Set<string>(), removed: new Set<string>(), changed: new Set<string>() };
    for (const event of events as { added: string[]; removed: string[]; changed: string[]; serverName: string }[]) {
      expect(event.serverName).toBe("test-server");
      event.added.forEach((n) => merged.added.add(n));
      event.removed.forEach((n) => merged.removed.add(n));
      event.changed.forEach((n) => merged.changed.add(n));
    }
    expect([...merged.added]).toEqual(["new"]);
    expect([...merged.removed]).toEqual(["drop"]);
    expect([...merged.changed]).toEqual(["edit"]);
    await adapter.disconnect();
  });

  it("the onToolsChanged option receives events; the refresh keeps the discovery filter", async () => {
    let resolveEvent: (event: { added: string[] }) => void = () => undefined;
    const event = new Promise<{ added: string[] }>((resolve) => (resolveEvent = resolve));
    const { adapter, server } = await connectedHarness(
      { tools: tools("get_a", "set_a") },
      { onToolsChanged: (e) => resolveEvent(e) },
    );
    await adapter.discoverTools({ include: ["get_*"] });
    await server.addTool({ name: "get_b" });
    expect((await event).added).toEqual(["get_b"]);
    expect(adapter.discoveredTools.map((t) => t.name)).toEqual(["get_a", "get_b"]);
    await adapter.disconnect();
  });

  it("a throwing listener does not stop the others", async () => {
    let seen = false;
    const { adapter, server } = await connectedHarness({ tools: tools("a") }, { logger: {} });
    await adapter.discoverTools();
    adapter.onToolsChanged(() => {
      throw new Error("listener bug");
    });
    const done = new Promise<void>((resolve) => adapter.onToolsChanged(() => ((seen = true), resolve())));
    await server.addTool({ name: "b" });
    await done;
    expect(seen).toBe(true);
    await adapter.disconnect();
  });
});
