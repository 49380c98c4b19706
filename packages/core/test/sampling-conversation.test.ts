import { describe, expect, it } from "vitest";
import {
  chooseSamplingModel,
  invalidSamplingRequest,
  samplingAnswer,
  samplingTurns,
  toolResultText,
  type MCPClientRequestContext,
  type MCPSamplingMessage,
  type MCPSamplingRequest,
  type MCPToolResultContent,
} from "../src/index.js";

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

describe("invalidSamplingRequest", () => {
  it("makes the caller's error with the one code and wording, and samplingTurns throws it", () => {
    class BridgeError extends Error {
      constructor(
        readonly code: string,
        message: string,
      ) {
        super(message);
      }
    }
    const bridgeInvalid = invalidSamplingRequest((code, message) => new BridgeError(code, message));
    expect(bridgeInvalid("messages[0]: bad")).toMatchObject({
      code: "SAMPLING_REQUEST_INVALID",
      message: "Invalid sampling/createMessage request: messages[0]: bad",
    });
    const thrown = (() => {
      try {
        samplingTurns({ messages: [{ role: "user", content: [result("nope")] }] }, bridgeInvalid);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(BridgeError);
    expect(thrown).toMatchObject({
      code: "SAMPLING_REQUEST_INVALID",
      message: /^Invalid sampling\/createMessage request: messages\[0\]/,
    });
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

describe("chooseSamplingModel", () => {
  const request: MCPSamplingRequest = {
    messages: [{ role: "user", content: { type: "text", text: "hi" } }],
    maxTokens: 10,
    modelPreferences: { hints: [{ name: "small" }] },
  };
  const context: MCPClientRequestContext = { serverName: "weather", signal: new AbortController().signal };

  it("gives a model as it is, and asks a choosing function with the request and its context", () => {
    const fixed = { id: "fixed" };
    expect(chooseSamplingModel(fixed, request, context)).toBe(fixed);
    const seen: unknown[] = [];
    const chosen = chooseSamplingModel(
      (asked: MCPSamplingRequest, where: MCPClientRequestContext) => {
        seen.push(asked, where);
        return { id: asked.modelPreferences?.hints?.[0]?.name ?? "none" };
      },
      request,
      context,
    );
    expect(chosen).toEqual({ id: "small" });
    expect(seen).toEqual([request, context]);
  });
});

describe("samplingAnswer", () => {
  const empty = (): Error => new Error("no block");

  it("gives one block as itself and several as a list", () => {
    const text = { type: "text", text: "Sunny." } as const;
    expect(samplingAnswer({ content: [text], model: "m", stopReason: "endTurn" }, empty)).toEqual({
      role: "assistant",
      content: text,
      model: "m",
      stopReason: "endTurn",
    });
    const both = samplingAnswer({ content: [text, toolUse], model: "m", stopReason: "toolUse" }, empty);
    expect(both.content).toEqual([text, toolUse]);
  });

  it("raises the caller's error for an answer with no block", () => {
    expect(() => samplingAnswer({ content: [], model: "m", stopReason: "endTurn" }, empty)).toThrow("no block");
  });
});
