import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import {
  everythingStdioServer,
  expectNoLeakedProcesses,
  startSamplingToolsServer,
  type SamplingToolsServer,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIAgentsSamplingHandler, OpenAIAgentsSamplingError } from "../src/index.js";

// The ready sampling handler on the Agents SDK's own scripted model, answering real servers: an
// in-process SDK server that samples with a tool (an agent loop with tool round trips), and
// server-everything's plain sampling tool over stdio.
const nodeMajor = Number(process.versions.node.split(".")[0]);

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

describe.skipIf(nodeMajor < 22)("createOpenAIAgentsSamplingHandler against a server that samples with tools", () => {
  let server: SamplingToolsServer;
  let adapter: MCPToolAdapter;

  async function connect(model: ScriptedModel): Promise<void> {
    server = await startSamplingToolsServer();
    const transport = server.clientTransport;
    adapter = new MCPToolAdapter(
      { name: "agent", transport: "stdio", command: "unused" },
      {
        transport: () => transport,
        onSampling: createOpenAIAgentsSamplingHandler({ model, modelName: "scripted-weather" }),
        samplingTools: true,
      },
    );
    await adapter.connect();
  }
  afterEach(async () => {
    await adapter.disconnect();
    await server.close();
  });

  it("runs the server's tool round trip: tool_use with toolUse, then the final text", async () => {
    const model = new ScriptedModel([
      [functionCall("get_weather", { city: "Paris" }, { callId: "call-1" })],
      [assistantMessage("It is sunny in Paris.")],
    ]);
    await connect(model);
    const result = await adapter.invoke("ask-weather-agent", { question: "Weather in Paris?" });
    expect(result.error).toBeNull();
    expect(textOf(result)).toBe("It is sunny in Paris.");

    expect(server.rounds.map((round) => round.answer)).toEqual([
      {
        role: "assistant",
        content: { type: "tool_use", id: "call-1", name: "get_weather", input: { city: "Paris" } },
        model: "scripted-weather",
        stopReason: "toolUse",
      },
      {
        role: "assistant",
        content: { type: "text", text: "It is sunny in Paris." },
        model: "scripted-weather",
        stopReason: "endTurn",
      },
    ]);

    // What the model was given: the server's tool, system prompt and limits, then the round trip.
    const [first, second] = model.calls.map((call) => call.request);
    expect(first?.systemInstructions).toBe("You answer weather questions.");
    expect(first?.modelSettings).toMatchObject({ maxTokens: 200, toolChoice: "auto" });
    expect(first?.tools).toEqual([
      expect.objectContaining({
        type: "function",
        name: "get_weather",
        description: "The current weather in a city",
        parameters: expect.objectContaining({ required: ["city"] }) as unknown,
      }),
    ]);
    expect(second?.input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] },
      expect.objectContaining({
        type: "function_call",
        callId: "call-1",
        name: "get_weather",
        arguments: '{"city":"Paris"}',
      }),
      {
        type: "function_call_result",
        callId: "call-1",
        name: "get_weather",
        status: "completed",
        output: { type: "text", text: "sunny, 21°C in Paris" },
      },
    ]);
  });

  it("passes a failed tool result to the model, marked as an error", async () => {
    const model = new ScriptedModel([
      [functionCall("get_weather", {}, { callId: "call-1" })],
      [assistantMessage("Which city?")],
    ]);
    await connect(model);
    expect(textOf(await adapter.invoke("ask-weather-agent", { question: "Weather?" }))).toBe("Which city?");
    const input = model.calls[1]?.request.input as { type: string; output?: unknown }[];
    expect(input.at(-1)).toMatchObject({ output: { type: "text", text: "Error: city is required" } });
  });
});

describe.skipIf(nodeMajor < 22)("createOpenAIAgentsSamplingHandler against server-everything", () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("answers trigger-sampling-request with the model's text", async () => {
    const model = new ScriptedModel([[assistantMessage("Paris.")]]);
    const launch = everythingStdioServer();
    const adapter = new MCPToolAdapter(
      { name: "everything", transport: "stdio", ...launch },
      {
        transport: () => createStdioTransport(launch),
        connectTimeoutMs: 20_000,
        onSampling: createOpenAIAgentsSamplingHandler({ model, modelName: "scripted-paris" }),
      },
    );
    try {
      await adapter.connect();
      const result = await adapter.invoke("trigger-sampling-request", { prompt: "capital of France?", maxTokens: 30 });
      expect(textOf(result)).toContain("Paris.");
      expect(textOf(result)).toContain("scripted-paris");
      expect(model.calls[0]?.request).toMatchObject({
        systemInstructions: "You are a helpful test server.",
        modelSettings: { maxTokens: 30 },
      });
    } finally {
      await adapter.disconnect();
    }
  });
});

describe.skipIf(nodeMajor < 22)("createOpenAIAgentsSamplingHandler on requests it cannot answer", () => {
  const context = { serverName: "s", signal: new AbortController().signal };

  async function failure(promise: unknown): Promise<unknown> {
    return await Promise.resolve(promise).catch((caught: unknown) => caught);
  }

  it("refuses a tool_result that answers no tool_use, naming where", async () => {
    const handler = createOpenAIAgentsSamplingHandler({ model: new ScriptedModel([[assistantMessage("x")]]) });
    const error = await failure(
      handler(
        {
          maxTokens: 10,
          messages: [{ role: "user", content: { type: "tool_result", toolUseId: "nope", content: [] } }],
        },
        context,
      ),
    );
    expect(OpenAIAgentsSamplingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "SAMPLING_REQUEST_INVALID" });
    expect((error as Error).message).toContain("messages[0]: tool_result nope answers no tool_use");
  });

  it("refuses a function call whose arguments are not a JSON object", async () => {
    const handler = createOpenAIAgentsSamplingHandler({
      model: new ScriptedModel([
        [{ type: "function_call", callId: "c", name: "get_weather", arguments: "[1]", status: "completed" }],
      ]),
    });
    const error = await failure(
      handler({ maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: "hi" } }] }, context),
    );
    expect(error).toMatchObject({ code: "SAMPLING_ANSWER_INVALID" });
    expect((error as Error).message).toContain('tool "get_weather"');
  });
});
