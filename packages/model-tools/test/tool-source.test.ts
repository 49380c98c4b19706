import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { createInMemoryTestServer, type InMemoryTestServer, type TestTool } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import {
  createModelToolSet,
  handleToolCall,
  ModelToolsError,
  resolveToolSource,
  toAnthropicTools,
  toOpenAITools,
  type ToolSourceInput,
} from "../src/index.js";

// A real MCPToolAdapter on an in-process SDK server: the adapter as a user hands it to a bridge.
const echo: TestTool = {
  name: "echo",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};
const opened: { adapter: MCPToolAdapter; server: InMemoryTestServer }[] = [];

function newAdapter(name: string, tools: TestTool[] = [echo]): { adapter: MCPToolAdapter; server: InMemoryTestServer } {
  const server = createInMemoryTestServer({ tools });
  const adapter = new MCPToolAdapter(
    { name, transport: "stdio", command: "in-process" },
    { transport: () => server.connect() },
  );
  opened.push({ adapter, server });
  return { adapter, server };
}

afterEach(async () => {
  await Promise.all(
    opened.splice(0).map(async ({ adapter, server }) => Promise.all([adapter.disconnect(), server.close()])),
  );
});

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("an MCPToolAdapter as a tool source", () => {
  it("gives a discovered adapter's tools under its server name, and calls reach the server", async () => {
    const { adapter, server } = newAdapter("notes");
    await adapter.connect();
    await adapter.discoverTools();

    const tools = toOpenAITools(adapter);
    expect(tools.map((tool) => tool.function.name)).toEqual(["notes__echo"]);
    const set = createModelToolSet(adapter);
    expect(set.tools[0]?.registryName).toBe("notes/echo");
    expect(set.tools[0]?.registered.source).toBe("mcp");

    const output = await handleToolCall(
      adapter,
      { id: "c1", name: "notes__echo", arguments: '{"text":"hi"}' },
      { format: "openai-chat" },
    );
    expect(output).toMatchObject({ role: "tool", tool_call_id: "c1" });
    expect(output.content).toContain("hi");
    expect(server.callCount).toBe(1);
  });

  it("follows tools/list_changed: the next snapshot has the new tool and subscribers hear of it", async () => {
    const { adapter, server } = newAdapter("live");
    await adapter.connect();
    await adapter.discoverTools();
    const source = resolveToolSource(adapter);
    expect(resolveToolSource(adapter)).toBe(source);
    const changed = new Promise((resolve) => source.subscribe(resolve));

    await server.addTool({ name: "later", inputSchema: { type: "object" } });
    await expect(changed).resolves.toMatchObject({ namespace: "live", added: ["live/later"] });
    expect(toAnthropicTools(adapter).map((tool) => tool.name)).toEqual(["live__echo", "live__later"]);

    await server.removeTool("echo");
    await expect.poll(() => toAnthropicTools(adapter).map((tool) => tool.name)).toEqual(["live__later"]);
  });

  it("refuses an adapter that has not discovered its tools with SOURCE_NOT_READY, then works once it has", async () => {
    const { adapter } = newAdapter("early");
    const notConnected = caught(() => toOpenAITools(adapter));
    expect(notConnected).toBeInstanceOf(ModelToolsError);
    expect(notConnected).toMatchObject({ code: "SOURCE_NOT_READY" });
    expect((notConnected as Error).message).toContain('MCPToolAdapter "early" has not discovered its tools yet');
    expect((notConnected as Error).message).toContain("await adapter.discoverTools()");

    await adapter.connect();
    // The first refusal's registration failed (not connected): the next attempt names why.
    const connected = caught(() => toOpenAITools(adapter));
    expect(connected).toMatchObject({ code: "SOURCE_NOT_READY" });
    expect((connected as Error).message).toContain("the last attempt failed");

    await adapter.discoverTools();
    expect(toOpenAITools(adapter).map((tool) => tool.function.name)).toEqual(["early__echo"]);
  });

  it("accepts a discovered adapter whose server has no tools: an empty list, not a refusal", async () => {
    const { adapter } = newAdapter("empty", []);
    await adapter.connect();
    await adapter.discoverTools();
    expect(toOpenAITools(adapter)).toEqual([]);
  });

  it("refuses an adapter whose server name cannot be a namespace, and says how to register it", async () => {
    const { adapter } = newAdapter("team/notes");
    await adapter.connect();
    await adapter.discoverTools();
    const error = caught(() => createModelToolSet(adapter));
    expect(error).toMatchObject({ code: "INVALID_SOURCE" });
    expect((error as Error).message).toContain('must not contain "/"');
    expect((error as Error).message).toContain("adapter.registerTools(registry,");
  });
});

describe("what a tool source may be", () => {
  it("takes a registry, and anything holding one in `registry`", () => {
    const registry = new ToolRegistry();
    expect(resolveToolSource(registry)).toBe(registry);
    expect(resolveToolSource({ registry })).toBe(registry);
  });

  it.each([
    ["an object without the methods", {}, "this object"],
    ["null", null, "null"],
    ["a string", "registry", "a string"],
    ["an array", [], "an array"],
    ["a class instance of another kind", new Map(), "a Map"],
    ["a holder whose registry is not one", { registry: {} }, "this object"],
  ])("refuses %s with INVALID_SOURCE naming every kind of source", (_kind, input, described) => {
    for (const convert of [
      () => toOpenAITools(input as unknown as ToolSourceInput),
      () => createModelToolSet(input as unknown as ToolSourceInput),
    ]) {
      const error = caught(convert);
      expect(error).toBeInstanceOf(ModelToolsError);
      expect(error).toMatchObject({ code: "INVALID_SOURCE" });
      const { message } = error as Error;
      expect(message).toContain(`Cannot take tools from ${described}`);
      for (const kind of ["a ToolRegistry", "an MCPToolAdapter", "an MCPServerSet", "list, call and subscribe"])
        expect(message).toContain(kind);
    }
  });

  it("rejects handleToolCall on something that is not a source", async () => {
    await expect(
      handleToolCall(
        {} as unknown as ToolSourceInput,
        { id: "1", name: "x", arguments: "{}" },
        { format: "anthropic" },
      ),
    ).rejects.toMatchObject({ code: "INVALID_SOURCE" });
  });
});
