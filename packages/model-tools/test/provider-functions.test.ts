import { describe, expect, it } from "vitest";
import {
  createModelToolSet,
  handleToolCall,
  toAnthropicToolResult,
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toGeminiFunctionResponse,
  toOpenAIChatToolMessage,
  toOpenAIResponsesOutput,
  toOpenAITools,
  ModelToolsError,
  type HandleToolCallOptions,
  type ToolSource,
} from "../src/index.js";
import { createNotesRegistry } from "./registry-fixture.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const imageResult = {
  success: true,
  data: {
    content: [
      { type: "text", text: "a dot" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "image", data: "AAAA", mimeType: "image/bmp" },
    ],
  },
};

describe("tool definitions", () => {
  it("toOpenAITools: Chat Completions shape, strict where the schema converts", () => {
    const tools = toOpenAITools(createNotesRegistry().registry);
    const search = tools.find((tool) => tool.function.name === "notes__search")!;
    expect(search).toEqual({
      type: "function",
      function: {
        name: "notes__search",
        description: "The search tool",
        parameters: {
          type: "object",
          properties: {
            query: { type: "string", description: "(minLength: 1)" },
            limit: { type: ["integer", "null"], minimum: 1 },
          },
          required: ["query", "limit"],
          additionalProperties: false,
        },
        strict: true,
      },
    });
  });

  it("toOpenAITools: Responses shape, and plain schemas with strict: false", () => {
    const tools = toOpenAITools(createNotesRegistry().registry, { api: "responses", strict: false });
    const search = tools.find((tool) => tool.name === "notes__search")!;
    expect(search).toEqual({
      type: "function",
      name: "notes__search",
      description: "The search tool",
      parameters: {
        type: "object",
        properties: { query: { type: "string", minLength: 1 }, limit: { type: "integer", minimum: 1 } },
        required: ["query"],
      },
      strict: false,
    });
  });

  it("toAnthropicTools: name, description, input_schema", () => {
    const tools = toAnthropicTools(createNotesRegistry().registry, { filter: (tool) => tool.localName === "append" });
    expect(tools).toEqual([
      {
        name: "notes__append",
        description: "The append tool",
        input_schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      },
    ]);
  });

  it("toGeminiFunctionDeclarations: OpenAPI-subset parameters, none for a tool without arguments", () => {
    const declarations = toGeminiFunctionDeclarations(createNotesRegistry().registry);
    expect(declarations.find((tool) => tool.name === "notes__search")).toEqual({
      name: "notes__search",
      description: "The search tool",
      parameters: {
        type: "OBJECT",
        properties: { query: { type: "STRING", minLength: 1 }, limit: { type: "INTEGER", minimum: 1 } },
        required: ["query"],
      },
    });
    expect(declarations.find((tool) => tool.name === "notes__mystery")).toEqual({
      name: "notes__mystery",
      description: "The mystery tool",
    });
  });

  it("reuses a tool set's tools and memoised schemas", () => {
    const set = createModelToolSet(createNotesRegistry().registry);
    const first = toOpenAITools(set);
    const second = toOpenAITools(set);
    expect(second[0]!.function.parameters).toBe(first[0]!.function.parameters);
  });
});

describe("result shapes", () => {
  it("OpenAI Chat: a tool message with text", () => {
    expect(toOpenAIChatToolMessage("call_1", { success: true, data: "done" })).toEqual({
      role: "tool",
      tool_call_id: "call_1",
      content: "done",
    });
  });

  it("OpenAI Responses: a string, or input_text / input_image items when there are images", () => {
    expect(toOpenAIResponsesOutput("call_1", { success: true, data: "done" })).toEqual({
      type: "function_call_output",
      call_id: "call_1",
      output: "done",
    });
    expect(toOpenAIResponsesOutput("call_2", imageResult)).toEqual({
      type: "function_call_output",
      call_id: "call_2",
      output: [
        { type: "input_text", text: "a dot" },
        { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
        { type: "input_image", image_url: "data:image/bmp;base64,AAAA", detail: "auto" },
      ],
    });
    const audio = toOpenAIResponsesOutput("call_3", {
      success: true,
      data: { content: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }] },
    });
    expect(audio.output).toEqual([
      { type: "input_text", text: "[audio: audio/wav; audio cannot be returned in a function call output]" },
    ]);
  });

  it("Anthropic: tool_result blocks with base64 images of accepted types, is_error on failure", () => {
    expect(toAnthropicToolResult("toolu_1", imageResult)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: [
        { type: "text", text: "a dot" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
        { type: "text", text: "[image: image/bmp; not a type Claude accepts in a tool result]" },
      ],
    });
    const failed = toAnthropicToolResult("toolu_2", { success: false, errorKind: "timeout", error: "too slow" });
    expect(failed.is_error).toBe(true);
    expect(failed.content).toEqual([
      { type: "text", text: expect.stringMatching(/^Error \(errorKind: timeout\): too slow\nNext step: /) as unknown },
    ]);
    expect(
      toAnthropicToolResult("toolu_3", { success: true, data: { content: [{ type: "text", text: "" }] } }).content,
    ).toEqual([{ type: "text", text: "(empty text)" }]);
  });

  it("Gemini: functionResponse with output, or error for a failure", () => {
    expect(toGeminiFunctionResponse("fc_1", "notes__search", { success: true, data: "hit" })).toEqual({
      functionResponse: { id: "fc_1", name: "notes__search", response: { output: "hit" } },
    });
    expect(
      toGeminiFunctionResponse(undefined, "notes__search", { success: false, errorKind: "not_found", error: "gone" })
        .functionResponse,
    ).toEqual({
      name: "notes__search",
      response: { error: expect.stringContaining("Error (errorKind: not_found): gone") as unknown },
    });
  });
});

describe("handleToolCall", () => {
  it("maps the name back, parses, restores and validates the arguments, calls, and shapes the result", async () => {
    const { registry, calls } = createNotesRegistry();
    const message = await handleToolCall(
      registry,
      { id: "call_1", name: "notes__search", arguments: '{"query":"ada","limit":null}' },
      { format: "openai-chat" },
    );
    expect(message).toEqual({ role: "tool", tool_call_id: "call_1", content: "found ada" });
    expect(calls.map((call) => call.args)).toEqual([{ query: "ada" }]);
  });

  it("leaves out a null the model sent for an optional argument of a local tool, in every format", async () => {
    for (const format of ["anthropic", "gemini", "openai-chat"] as const) {
      const { registry, calls } = createNotesRegistry();
      const answer = await handleToolCall(
        registry,
        { id: "c", name: "notes__search", arguments: '{"query":"ada","limit":null}' },
        { format },
      );
      expect(JSON.stringify(answer)).toContain("found ada");
      expect(calls.map((call) => call.args)).toEqual([{ query: "ada" }]);
    }
  });

  it.each([
    ["openai-responses", { type: "function_call_output", call_id: "c", output: "found x" }],
    ["anthropic", { type: "tool_result", tool_use_id: "c", content: [{ type: "text", text: "found x" }] }],
    ["gemini", { functionResponse: { id: "c", name: "notes__search", response: { output: "found x" } } }],
  ] as const)("answers in the %s shape", async (format, expected) => {
    const { registry } = createNotesRegistry();
    expect(
      await handleToolCall(registry, { id: "c", name: "notes__search", arguments: { query: "x" } }, { format }),
    ).toEqual(expected);
  });

  it("answers an unknown tool with the tools there are", async () => {
    const { registry } = createNotesRegistry();
    const message = await handleToolCall(
      registry,
      { id: "c", name: "notes__nope", arguments: "{}" },
      { format: "openai-chat" },
    );
    expect(message.content).toBe(
      'Error (errorKind: not_found): there is no tool named "notes__nope". Available tools: notes__search, notes__delete_all, notes__append, notes__mystery\nNext step: This tool is not available (any more). Do not call it again; pick another tool from the current list.',
    );
  });

  it("answers arguments that are not a JSON object, without calling the tool", async () => {
    const { registry, calls } = createNotesRegistry();
    const bad = await handleToolCall(
      registry,
      { id: "c", name: "notes__search", arguments: "{query: ada}" },
      { format: "anthropic" },
    );
    expect(bad.is_error).toBe(true);
    expect(bad.content[0]).toMatchObject({
      text: expect.stringMatching(
        /^Error \(errorKind: validation\): invalid arguments for tool "notes__search": the arguments are not valid JSON \(.+\); send one JSON object\nNext step: Fix the arguments/,
      ) as unknown,
    });
    const array = await handleToolCall(
      registry,
      { id: "c", name: "notes__search", arguments: "[1]" },
      { format: "openai-chat" },
    );
    expect(array.content).toContain("the arguments must be a JSON object, got an array");
    const invalid = await handleToolCall(
      registry,
      { id: "c", name: "notes__search", arguments: '{"limit":0}' },
      { format: "openai-chat" },
    );
    expect(invalid.content).toContain('Error (errorKind: validation): invalid arguments for tool "notes/search"');
    expect(invalid.content).toContain("must have required property 'query'");
    expect(calls).toEqual([]);
  });

  it("treats empty arguments as an empty object", async () => {
    const { registry } = createNotesRegistry();
    const message = await handleToolCall(
      registry,
      { id: "c", name: "notes__mystery", arguments: "" },
      { format: "openai-chat" },
    );
    expect(message.content).toBe(
      "Error (errorKind: server_error): broken\nNext step: The tool reported an error. If the message says the arguments were wrong, fix them and call again; otherwise try again later or use another tool.",
    );
  });

  it("passes the signal through and truncates with maxChars", async () => {
    const { registry, calls } = createNotesRegistry();
    const controller = new AbortController();
    const message = await handleToolCall(
      registry,
      { id: "c", name: "notes__search", arguments: { query: "y".repeat(100) } },
      { format: "openai-chat", signal: controller.signal, maxChars: 20 },
    );
    expect(calls[0]!.signal).toBe(controller.signal);
    expect(message.content).toMatch(/^found y{14}\n\[truncated: showing 20 of 106 characters/);
  });

  it("sees a tool registered after an earlier call (the cached set follows the source)", async () => {
    const { registry } = createNotesRegistry();
    await handleToolCall(
      registry,
      { id: "c", name: "notes__search", arguments: { query: "x" } },
      { format: "openai-chat" },
    );
    registry.register("late", {
      name: "hello",
      description: "",
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: () => ({ success: true, data: "hi" }),
    });
    expect(
      await handleToolCall(registry, { id: "c", name: "late__hello", arguments: "{}" }, { format: "openai-chat" }),
    ).toMatchObject({ content: "hi" });
  });

  it.each([
    ["no format", {}, "got none"],
    ["an unknown format", { format: "openai" }, 'got "openai"'],
    ["a format that is not a string", { format: 3 }, "got a number"],
    ["no options at all", undefined, "got none"],
  ])("refuses %s before the tool runs: INVALID_OPTIONS naming the formats", async (_case, options, got) => {
    const { registry, calls } = createNotesRegistry();
    const call = { id: "c", name: "notes__search", arguments: { query: "x" } };
    const refused = handleToolCall(registry, call, options as unknown as HandleToolCallOptions);
    await expect(refused).rejects.toBeInstanceOf(ModelToolsError);
    await expect(refused).rejects.toMatchObject({ code: "INVALID_OPTIONS" });
    await expect(refused).rejects.toThrow(
      `handleToolCall needs options.format, one of "openai-chat", "openai-responses", "anthropic", "gemini" (the provider the result goes back to); ${got}. No tool was called.`,
    );
    expect(calls).toEqual([]);
  });

  it("never throws, even when the source does", async () => {
    const broken: ToolSource = {
      list: () => {
        throw new Error("list failed");
      },
      call: () => Promise.reject(new Error("no")),
      subscribe: () => () => undefined,
    };
    const message = await handleToolCall(broken, { id: "c", name: "x", arguments: "{}" }, { format: "openai-chat" });
    expect(message.content).toMatch(
      /^Error \(errorKind: handler_error\): the tool call "x" could not be run: list failed/,
    );
  });
});
