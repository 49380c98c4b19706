import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { discoverInMemoryServer, type DiscoveredInMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { createAgent } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { createLangChainTools, type ToolSourceInput } from "../src/index.js";

/** One createAgent step in which the model calls `name`; returns the ToolMessage of the next call. */
async function callThroughAgent(source: ToolSourceInput, name: string, args: Record<string, unknown>) {
  const model = fakeModel()
    .respondWithTools([{ name, args, id: "call-1" }])
    .respond(new AIMessage("done"));
  await createAgent({ model, tools: createLangChainTools(source) }).invoke({ messages: [new HumanMessage("go")] });
  const messages: BaseMessage[] = model.calls[1]?.messages ?? [];
  return messages.find((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("LangChain bridge with an MCPToolAdapter as the source", () => {
  let notes: DiscoveredInMemoryServer | undefined;

  afterEach(async () => {
    await notes?.close();
  });

  it("runs a createAgent step on the adapter's tools, named after its server", async () => {
    notes = await discoverInMemoryServer("notes", {
      tools: [{ name: "save", inputSchema: { type: "object", properties: { text: { type: "string" } } } }],
    });
    expect(createLangChainTools(notes.adapter).map((tool) => tool.name)).toEqual(["notes__save"]);

    const message = await callThroughAgent(notes.adapter, "notes__save", { text: "milk" });
    expect(message).toMatchObject({ name: "notes__save", status: "success", content: '{"text":"milk"}' });
    expect(notes.server.callCount).toBe(1);
  });

  it("sees a tool the server adds after tools/list_changed, in the next conversion", async () => {
    notes = await discoverInMemoryServer("notes", { tools: [{ name: "save" }] });
    const { adapter, server } = notes;
    await server.addTool({ name: "forget" });
    await expect
      .poll(() => createLangChainTools(adapter).map((tool) => tool.name))
      .toEqual(["notes__save", "notes__forget"]);
    const message = await callThroughAgent(adapter, "notes__forget", {});
    expect(message).toMatchObject({ name: "notes__forget", status: "success", content: "{}" });
  });

  it("refuses what is not a tool source with a ModelToolsError naming what a source may be", () => {
    expect(() => createLangChainTools({ tools: [] } as unknown as ToolSourceInput)).toThrow(
      expect.objectContaining({
        code: "INVALID_SOURCE",
        message: expect.stringContaining("a ToolRegistry, an MCPToolAdapter, an MCPServerSet") as unknown,
      }),
    );
  });
});
