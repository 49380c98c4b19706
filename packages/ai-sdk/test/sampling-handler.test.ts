import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import {
  everythingStdioServer,
  expectNoLeakedProcesses,
  startSamplingToolsServer,
  type SamplingToolsServer,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { AISDKSamplingError, createAISDKSamplingHandler } from "../src/index.js";

// The ready sampling handler on the AI SDK's own test model, answering real servers: an
// in-process SDK server that samples with a tool (an agent loop with tool round trips), and
// server-everything's plain sampling tool over stdio.
const nodeMajor = Number(process.versions.node.split(".")[0]);

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCallStep(toolCallId: string, input: Record<string, unknown>): GenerateResult {
  return {
    content: [{ type: "tool-call", toolCallId, toolName: "get_weather", input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_use" },
    usage,
    warnings: [],
  };
}

function textStep(text: string): GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

describe.skipIf(nodeMajor < 22)("createAISDKSamplingHandler against a server that samples with tools", () => {
  let server: SamplingToolsServer;
  let adapter: MCPToolAdapter;

  async function connect(model: MockLanguageModelV4, samplingTools = true): Promise<void> {
    server = await startSamplingToolsServer();
    const transport = server.clientTransport;
    adapter = new MCPToolAdapter(
      { name: "agent", transport: "stdio", command: "unused" },
      { transport: () => transport, onSampling: createAISDKSamplingHandler({ model }), samplingTools },
    );
    await adapter.connect();
  }
  afterEach(async () => {
    await adapter.disconnect();
    await server.close();
  });

  it("runs the server's tool round trip: tool_use with toolUse, then the final text", async () => {
    const model = new MockLanguageModelV4({
      modelId: "mock-weather",
      doGenerate: [toolCallStep("call-1", { city: "Paris" }), textStep("It is sunny in Paris.")],
    });
    await connect(model);
    const result = await adapter.invoke("ask-weather-agent", { question: "Weather in Paris?" });
    expect(result.error).toBeNull();
    expect(textOf(result)).toBe("It is sunny in Paris.");

    // What the server got back each round.
    expect(server.rounds.map((round) => round.answer)).toEqual([
      {
        role: "assistant",
        content: { type: "tool_use", id: "call-1", name: "get_weather", input: { city: "Paris" } },
        model: "mock-weather",
        stopReason: "toolUse",
      },
      {
        role: "assistant",
        content: { type: "text", text: "It is sunny in Paris." },
        model: "mock-weather",
        stopReason: "endTurn",
      },
    ]);

    // What the model saw: the server's tool and choice, its system prompt and token limit...
    const [first, second] = model.doGenerateCalls;
    expect(first?.tools).toEqual([
      expect.objectContaining({
        type: "function",
        name: "get_weather",
        description: "The current weather in a city",
        inputSchema: expect.objectContaining({
          properties: { city: { type: "string" } },
          required: ["city"],
        }) as unknown,
      }),
    ]);
    expect(first?.toolChoice).toEqual({ type: "auto" });
    expect(first?.maxOutputTokens).toBe(200);
    expect(first?.prompt[0]).toEqual({ role: "system", content: "You answer weather questions." });
    // ...and, the second time, its own tool call and the server's result for it.
    expect(second?.prompt.slice(1)).toEqual([
      { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
      {
        role: "assistant",
        content: [
          expect.objectContaining({
            type: "tool-call",
            toolCallId: "call-1",
            toolName: "get_weather",
            input: { city: "Paris" },
          }),
        ],
      },
      {
        role: "tool",
        content: [
          expect.objectContaining({
            type: "tool-result",
            toolCallId: "call-1",
            toolName: "get_weather",
            output: { type: "text", value: "sunny, 21°C in Paris" },
          }),
        ],
      },
    ]);
  });

  it("passes a failed tool result to the model as error text", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("call-1", {}), textStep("Which city?")],
    });
    await connect(model);
    expect(textOf(await adapter.invoke("ask-weather-agent", { question: "Weather?" }))).toBe("Which city?");
    const toolMessage = model.doGenerateCalls[1]?.prompt.at(-1);
    expect(toolMessage).toEqual({
      role: "tool",
      content: [expect.objectContaining({ output: { type: "error-text", value: "city is required" } })],
    });
  });

  it("an adapter that did not declare sampling.tools is refused by the server's SDK, before the model runs", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [textStep("never")] });
    await connect(model, false);
    const result = await adapter.invoke("ask-weather-agent", { question: "Weather?" });
    expect(result.success).toBe(false);
    expect(result.error).toContain("sampling tools capability");
    expect(model.doGenerateCalls).toHaveLength(0);
  });
});

describe.skipIf(nodeMajor < 22)("createAISDKSamplingHandler against server-everything", () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("answers trigger-sampling-request with the model's text", async () => {
    const model = new MockLanguageModelV4({ modelId: "mock-paris", doGenerate: [textStep("Paris.")] });
    const launch = everythingStdioServer();
    const adapter = new MCPToolAdapter(
      { name: "everything", transport: "stdio", ...launch },
      {
        transport: () => createStdioTransport(launch),
        connectTimeoutMs: 20_000,
        onSampling: createAISDKSamplingHandler({ model }),
      },
    );
    try {
      await adapter.connect();
      const result = await adapter.invoke("trigger-sampling-request", { prompt: "capital of France?", maxTokens: 30 });
      expect(textOf(result)).toContain("Paris.");
      expect(textOf(result)).toContain("mock-paris");
      expect(model.doGenerateCalls[0]).toMatchObject({
        maxOutputTokens: 30,
        prompt: [{ role: "system", content: "You are a helpful test server." }, { role: "user" }],
      });
    } finally {
      await adapter.disconnect();
    }
  });
});

describe.skipIf(nodeMajor < 22)("createAISDKSamplingHandler on requests that break the tool-use rules", () => {
  const signal = new AbortController().signal;
  const context = { serverName: "s", signal };
  const handler = createAISDKSamplingHandler({ model: new MockLanguageModelV4({ doGenerate: [textStep("x")] }) });

  it("refuses a tool_result that answers no tool_use, naming where", async () => {
    const error = await Promise.resolve(
      handler(
        {
          maxTokens: 10,
          messages: [{ role: "user", content: { type: "tool_result", toolUseId: "nope", content: [] } }],
        },
        context,
      ),
    ).catch((caught: unknown) => caught);
    expect(AISDKSamplingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "SAMPLING_REQUEST_INVALID" });
    expect((error as Error).message).toContain("messages[0]: tool_result nope answers no tool_use");
  });

  it("refuses a tool_use left without its result", async () => {
    const error = await Promise.resolve(
      handler(
        {
          maxTokens: 10,
          messages: [
            { role: "user", content: { type: "text", text: "hi" } },
            { role: "assistant", content: { type: "tool_use", id: "t1", name: "get_weather", input: {} } },
            { role: "user", content: { type: "text", text: "and?" } },
          ],
        },
        context,
      ),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SAMPLING_REQUEST_INVALID" });
    expect((error as Error).message).toContain("messages[2]: the tool_use t1 of the turn before has no tool_result");
  });

  it("refuses an answer with neither text nor tool calls", async () => {
    const empty = createAISDKSamplingHandler({ model: new MockLanguageModelV4({ doGenerate: [textStep("")] }) });
    const error = await Promise.resolve(
      empty({ maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: "hi" } }] }, context),
    ).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SAMPLING_ANSWER_EMPTY" });
  });
});
