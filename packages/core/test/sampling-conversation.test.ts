import { describe, expect, it } from "vitest";
import { samplingTurns, toolResultText, type MCPSamplingMessage, type MCPToolResultContent } from "../src/index.js";

const invalid = (problem: string): Error => new Error(problem);
const toolUse = { type: "tool_use", id: "t1", name: "get_weather", input: { city: "Paris" } } as const;
const result = (toolUseId: string): MCPToolResultContent => ({
  type: "tool_result",
  toolUseId,
  content: [{ type: "text", text: "sunny" }],
});

function turnsOf(messages: MCPSamplingMessage[]) {
  return samplingTurns({ messages }, invalid);
}

describe("samplingTurns", () => {
  it("sorts a tool round trip into turns and pairs each result with its tool's name", () => {
    const turns = turnsOf([
      { role: "user", content: { type: "text", text: "Weather in Paris?" } },
      { role: "assistant", content: [toolUse] },
      { role: "user", content: [result("t1")] },
      { role: "assistant", content: { type: "text", text: "Sunny." } },
    ]);
    expect(turns.map((turn) => [turn.kind, turn.where])).toEqual([
      ["user", "messages[0]"],
      ["assistant", "messages[1]"],
      ["tool_results", "messages[2]"],
      ["assistant", "messages[3]"],
    ]);
    expect(turns[2]).toMatchObject({ results: [{ toolName: "get_weather", result: { toolUseId: "t1" } }] });
  });

  it("refuses tool results mixed with other content, or in an assistant turn", () => {
    expect(() =>
      turnsOf([
        { role: "assistant", content: [toolUse] },
        { role: "user", content: [result("t1"), { type: "text", text: "and" }] },
      ]),
    ).toThrow("messages[1]: tool_result blocks must be the only content of a user message");
    expect(() => turnsOf([{ role: "assistant", content: [result("t1")] }])).toThrow(
      "messages[0]: tool_result blocks must be the only content",
    );
  });

  it("refuses a result that answers no tool_use, and a tool_use left without its result", () => {
    expect(() => turnsOf([{ role: "user", content: [result("nope")] }])).toThrow(
      "messages[0]: tool_result nope answers no tool_use of the assistant turn before",
    );
    expect(() =>
      turnsOf([
        { role: "assistant", content: [toolUse, { ...toolUse, id: "t2" }] },
        { role: "user", content: [result("t1")] },
      ]),
    ).toThrow("messages[1]: no tool_result for tool_use t2 of the turn before");
    expect(() =>
      turnsOf([
        { role: "assistant", content: [toolUse] },
        { role: "user", content: { type: "text", text: "never mind" } },
      ]),
    ).toThrow("messages[1]: the tool_use t1 of the turn before has no tool_result");
  });

  it("raises the caller's own error", () => {
    class BridgeError extends Error {}
    expect(() =>
      samplingTurns({ messages: [{ role: "user", content: [result("x")] }] }, (p) => new BridgeError(p)),
    ).toThrow(BridgeError);
  });
});

describe("toolResultText", () => {
  it("joins the text blocks, else gives the structured content as JSON", () => {
    expect(
      toolResultText({
        type: "tool_result",
        toolUseId: "a",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toBe("a\nb");
    expect(toolResultText({ type: "tool_result", toolUseId: "a", content: [], structuredContent: { t: 21 } })).toBe(
      '{"t":21}',
    );
  });
});
