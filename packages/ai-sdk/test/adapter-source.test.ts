import { discoverInMemoryServer, type DiscoveredInMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { createAISDKTools, type ToolSourceInput } from "../src/index.js";

// Read-only tools run without an approval step, so one generateText call reaches the server.
const readOnly = { readOnlyHint: true };
const nodeMajor = Number(process.versions.node.split(".")[0]);

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCallStep(toolName: string, input: Record<string, unknown>): GenerateResult {
  return {
    content: [{ type: "tool-call", toolCallId: "call-1", toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

function textStep(text: string): GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

/** One generateText step in which the model calls `toolName`; returns the tool result parts of the next prompt. */
async function callThroughAgent(source: ToolSourceInput, toolName: string, input: Record<string, unknown>) {
  const model = new MockLanguageModelV4({ doGenerate: [toolCallStep(toolName, input), textStep("done")] });
  await generateText({
    model: model as LanguageModel,
    tools: createAISDKTools(source),
    prompt: "go",
    stopWhen: stepCountIs(3),
  });
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  return prompt.filter((message) => message.role === "tool").flatMap((message) => message.content);
}

describe.skipIf(nodeMajor < 22)("AI SDK bridge with an MCPToolAdapter as the source", () => {
  let notes: DiscoveredInMemoryServer | undefined;

  afterEach(async () => {
    await notes?.close();
  });

  it("runs an agent step on the adapter's tools, named after its server", async () => {
    notes = await discoverInMemoryServer("notes", {
      tools: [
        {
          name: "save",
          inputSchema: { type: "object", properties: { text: { type: "string" } } },
          annotations: readOnly,
        },
      ],
    });
    expect(Object.keys(createAISDKTools(notes.adapter))).toEqual(["notes__save"]);

    const results = await callThroughAgent(notes.adapter, "notes__save", { text: "milk" });
    expect(results).toEqual([
      expect.objectContaining({ toolName: "notes__save", output: { type: "text", value: '{"text":"milk"}' } }),
    ]);
    expect(notes.server.callCount).toBe(1);
  });

  it("sees a tool the server adds after tools/list_changed, in the next conversion", async () => {
    notes = await discoverInMemoryServer("notes", { tools: [{ name: "save", annotations: readOnly }] });
    await notes.server.addTool({ name: "forget", annotations: readOnly });
    await expect
      .poll(() => Object.keys(createAISDKTools(notes?.adapter as ToolSourceInput)))
      .toEqual(["notes__save", "notes__forget"]);
    const results = await callThroughAgent(notes.adapter, "notes__forget", {});
    expect(results).toEqual([
      expect.objectContaining({ toolName: "notes__forget", output: { type: "text", value: "{}" } }),
    ]);
  });

  it("refuses what is not a tool source with a ModelToolsError naming what a source may be", () => {
    expect(() => createAISDKTools({ tools: [] } as unknown as ToolSourceInput)).toThrow(
      expect.objectContaining({
        code: "INVALID_SOURCE",
        message: expect.stringContaining("a ToolRegistry, an MCPToolAdapter, an MCPServerSet") as unknown,
      }),
    );
  });
});
