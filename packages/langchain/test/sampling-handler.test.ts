import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import {
  everythingStdioServer,
  expectNoLeakedProcesses,
  startSamplingToolsServer,
  type SamplingToolsServer,
} from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { createLangChainSamplingHandler, LangChainSamplingError } from "../src/index.js";

// The ready sampling handler on LangChain's own fake chat model, answering real servers: an
// in-process SDK server that samples with a tool (an agent loop with tool round trips), and
// server-everything's plain sampling tool over stdio.

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

/** The model's answer asking for get_weather (no text: the fake's respondWithTools would echo the prompt as text). */
function toolCall(args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: "", tool_calls: [{ id: "call-1", name: "get_weather", args, type: "tool_call" }] });
}

describe("createLangChainSamplingHandler against a server that samples with tools", () => {
  let server: SamplingToolsServer;
  let adapter: MCPToolAdapter;

  async function connect(model: ReturnType<typeof fakeModel>): Promise<void> {
    server = await startSamplingToolsServer();
    const transport = server.clientTransport;
    adapter = new MCPToolAdapter(
      { name: "agent", transport: "stdio", command: "unused" },
      {
        transport: () => transport,
        onSampling: createLangChainSamplingHandler({ model, modelName: "fake-weather" }),
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
    const model = fakeModel()
      .respond(toolCall({ city: "Paris" }))
      .respond(new AIMessage("It is sunny in Paris."));
    await connect(model);
    const result = await adapter.invoke("ask-weather-agent", { question: "Weather in Paris?" });
    expect(result.error).toBeNull();
    expect(textOf(result)).toBe("It is sunny in Paris.");

    // What the server got back each round.
    expect(server.rounds.map((round) => round.answer)).toEqual([
      {
        role: "assistant",
        content: { type: "tool_use", id: "call-1", name: "get_weather", input: { city: "Paris" } },
        model: "fake-weather",
        stopReason: "toolUse",
      },
      {
        role: "assistant",
        content: { type: "text", text: "It is sunny in Paris." },
        model: "fake-weather",
        stopReason: "endTurn",
      },
    ]);

    // What the model saw: the system prompt and question, then its own call and the server's result.
    const [first, second] = model.calls;
    expect(first?.messages).toEqual([
      new SystemMessage("You answer weather questions."),
      new HumanMessage({ content: [{ type: "text", text: "Weather in Paris?" }] }),
    ]);
    expect(first?.options).toMatchObject({ tool_choice: "auto" });
    const toolMessage = second?.messages.at(-1);
    expect(ToolMessage.isInstance(toolMessage)).toBe(true);
    expect(toolMessage).toMatchObject({
      tool_call_id: "call-1",
      name: "get_weather",
      status: "success",
      content: "sunny, 21°C in Paris",
    });
    const call = second?.messages.at(-2);
    expect(AIMessage.isInstance(call) ? call.tool_calls : undefined).toEqual([
      { id: "call-1", name: "get_weather", args: { city: "Paris" }, type: "tool_call" },
    ]);
  });

  it("passes a failed tool result to the model as an error ToolMessage", async () => {
    const model = fakeModel().respond(toolCall({})).respond(new AIMessage("Which city?"));
    await connect(model);
    expect(textOf(await adapter.invoke("ask-weather-agent", { question: "Weather?" }))).toBe("Which city?");
    expect(model.calls[1]?.messages.at(-1)).toMatchObject({ status: "error", content: "city is required" });
  });

  it("sends the model's failure to the server as the sampling error, and the call fails with it", async () => {
    const model = fakeModel().respond(new Error("rate limited by the provider"));
    await connect(model);
    const result = await adapter.invoke("ask-weather-agent", { question: "Weather?" });
    expect(result.success).toBe(false);
    expect(result.error).toContain("rate limited by the provider");
  });
});

describe("createLangChainSamplingHandler against server-everything", () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("answers trigger-sampling-request with the model's text", async () => {
    const model = fakeModel().respond(new AIMessage("Paris."));
    const launch = everythingStdioServer();
    const adapter = new MCPToolAdapter(
      { name: "everything", transport: "stdio", ...launch },
      {
        transport: () => createStdioTransport(launch),
        connectTimeoutMs: 20_000,
        onSampling: createLangChainSamplingHandler({ model, modelName: "fake-paris" }),
      },
    );
    try {
      await adapter.connect();
      const result = await adapter.invoke("trigger-sampling-request", { prompt: "capital of France?", maxTokens: 30 });
      expect(textOf(result)).toContain("Paris.");
      expect(textOf(result)).toContain("fake-paris");
      expect(model.calls[0]?.messages[0]).toEqual(new SystemMessage("You are a helpful test server."));
    } finally {
      await adapter.disconnect();
    }
  });
});

describe("createLangChainSamplingHandler on requests it cannot answer", () => {
  const context = { serverName: "s", signal: new AbortController().signal };

  async function failure(promise: unknown): Promise<unknown> {
    return await Promise.resolve(promise).catch((caught: unknown) => caught);
  }

  it("refuses a tool_result that answers no tool_use, naming where", async () => {
    const handler = createLangChainSamplingHandler({ model: fakeModel().respond(new AIMessage("x")) });
    const error = await failure(
      handler(
        {
          maxTokens: 10,
          messages: [{ role: "user", content: { type: "tool_result", toolUseId: "nope", content: [] } }],
        },
        context,
      ),
    );
    expect(LangChainSamplingError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "SAMPLING_REQUEST_INVALID" });
    expect((error as Error).message).toContain("messages[0]: tool_result nope answers no tool_use");
  });

  it("refuses an answer with neither text nor tool calls", async () => {
    const handler = createLangChainSamplingHandler({ model: fakeModel().respond(new AIMessage("")) });
    const error = await failure(
      handler({ maxTokens: 10, messages: [{ role: "user", content: { type: "text", text: "hi" } }] }, context),
    );
    expect(error).toMatchObject({ code: "SAMPLING_ANSWER_EMPTY" });
  });
});
