import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { discoverInMemoryServer, type DiscoveredInMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIAgentsTools, type ToolSourceInput } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);
// Tracing would try to export to OpenAI's servers; the tests stay in process.
setTracingDisabled(true);
// Read-only tools run without an approval step, so one run reaches the server.
const readOnly = { readOnlyHint: true };

/** One agent run in which the model calls `name`; returns the text of the tool output it was given. */
async function callThroughAgent(source: ToolSourceInput, name: string, args: Record<string, unknown>) {
  const model = new ScriptedModel([[functionCall(name, args, { callId: "call-1" })], [assistantMessage("done")]]);
  await run(new Agent({ name: "notes", model, tools: createOpenAIAgentsTools(source) }), "go");
  const input = model.calls[1]?.request.input;
  const items = Array.isArray(input) ? (input as { type: string; name?: string; output?: unknown }[]) : [];
  const item = items.find((entry) => entry.type === "function_call_result");
  const output = item?.output as string | { text?: string } | undefined;
  return { name: item?.name, text: typeof output === "string" ? output : output?.text };
}

describe.skipIf(nodeMajor < 22)("OpenAI Agents bridge with an MCPToolAdapter as the source", () => {
  let notes: DiscoveredInMemoryServer | undefined;

  afterEach(async () => {
    await notes?.close();
  });

  it("runs an agent on the adapter's tools, named after its server", async () => {
    notes = await discoverInMemoryServer("notes", {
      tools: [
        {
          name: "save",
          inputSchema: { type: "object", properties: { text: { type: "string" } } },
          annotations: readOnly,
        },
      ],
    });
    expect(createOpenAIAgentsTools(notes.adapter).map((tool) => tool.name)).toEqual(["notes__save"]);

    expect(await callThroughAgent(notes.adapter, "notes__save", { text: "milk" })).toEqual({
      name: "notes__save",
      text: '{"text":"milk"}',
    });
    expect(notes.server.callCount).toBe(1);
  });

  it("sees a tool the server adds after tools/list_changed, in the next conversion", async () => {
    notes = await discoverInMemoryServer("notes", { tools: [{ name: "save", annotations: readOnly }] });
    const { adapter, server } = notes;
    await server.addTool({ name: "forget", annotations: readOnly });
    await expect
      .poll(() => createOpenAIAgentsTools(adapter).map((tool) => tool.name))
      .toEqual(["notes__save", "notes__forget"]);
    expect(await callThroughAgent(adapter, "notes__forget", {})).toEqual({ name: "notes__forget", text: "{}" });
  });

  it("refuses what is not a tool source with a ModelToolsError naming what a source may be", () => {
    expect(() => createOpenAIAgentsTools({ tools: [] } as unknown as ToolSourceInput)).toThrow(
      expect.objectContaining({
        code: "INVALID_SOURCE",
        message: expect.stringContaining("a ToolRegistry, an MCPToolAdapter, an MCPServerSet") as unknown,
      }),
    );
  });
});
