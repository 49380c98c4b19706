import { readFile } from "node:fs/promises";
import {
  registerEverythingServer,
  registerMemoryServer,
  type RegisteredMemoryServer,
  type RegisteredServer,
} from "@mcp-tool-adapter/test-helpers";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAISDKTools } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCallStep(toolName: string, input: Record<string, unknown>, toolCallId = "call-1"): GenerateResult {
  return {
    content: [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

function textStep(text: string): GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

/** The tool-result parts the model was shown in its second call. */
function toolResultsInSecondPrompt(model: MockLanguageModelV4): unknown[] {
  const prompt = model.doGenerateCalls[1]?.prompt ?? [];
  return prompt.filter((message) => message.role === "tool").flatMap((message) => message.content);
}

describe.skipIf(nodeMajor < 22)("AI SDK bridge against a real server-everything over stdio", () => {
  const registry = new ToolRegistry();
  let server: RegisteredServer;

  beforeAll(async () => {
    server = await registerEverythingServer(registry);
  });

  afterAll(async () => {
    await server.close();
  });

  it("runs one agent step: the model's tool call reaches the server and the result is in the next prompt", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("everything__echo", { message: "hello bridge" }), textStep("done")],
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools: createAISDKTools(registry),
      prompt: "echo it",
      stopWhen: stepCountIs(3),
    });

    expect(result.text).toBe("done");
    const tools = model.doGenerateCalls[0]?.tools ?? [];
    expect(tools.map((tool) => tool.name)).toContain("everything__echo");
    expect(toolResultsInSecondPrompt(model)).toEqual([
      expect.objectContaining({
        type: "tool-result",
        toolCallId: "call-1",
        toolName: "everything__echo",
        output: { type: "text", value: "Echo: hello bridge" },
      }),
    ]);
    expect(result.steps[0]?.toolResults[0]?.output).toMatchObject({ success: true });
  });

  it("gives a model that sent wrong arguments the validation message as the tool result, and the run goes on", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("everything__get-sum", { a: "two" }), textStep("I will fix that")],
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools: createAISDKTools(registry),
      prompt: "add",
      stopWhen: stepCountIs(3),
    });

    expect(result.text).toBe("I will fix that");
    const [part] = toolResultsInSecondPrompt(model) as [{ output: { type: string; value: string } }];
    expect(part.output.type).toBe("error-text");
    expect(part.output.value).toMatch(/validation/);
    expect(part.output.value).toMatch(/\/a must be number/);
    expect(part.output.value).toMatch(/required property 'b'/);
  });

  it("hands images to the model as file content parts", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("everything__get-tiny-image", {}), textStep("seen")],
    });
    await generateText({
      model: model as LanguageModel,
      tools: createAISDKTools(registry),
      prompt: "image",
      stopWhen: stepCountIs(3),
    });

    const [part] = toolResultsInSecondPrompt(model) as [
      { output: { type: string; value: { type: string; mediaType?: string }[] } },
    ];
    expect(part.output.type).toBe("content");
    expect(part.output.value).toContainEqual(expect.objectContaining({ type: "file", mediaType: "image/png" }));
    expect(part.output.value).toContainEqual(expect.objectContaining({ type: "text" }));
  });

  it("truncates a too-large result for the model with a visible marker", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("everything__echo", { message: "x".repeat(5_000) }), textStep("ok")],
    });
    await generateText({
      model: model as LanguageModel,
      tools: createAISDKTools(registry, { result: { maxChars: 200 } }),
      prompt: "big",
      stopWhen: stepCountIs(3),
    });

    const [part] = toolResultsInSecondPrompt(model) as [{ output: { type: string; value: string } }];
    expect(part.output.value.length).toBeLessThan(400);
    expect(part.output.value).toMatch(/truncated/i);
  });

  it("passes the AI SDK's abort signal through to the MCP call", async () => {
    const tools = createAISDKTools(registry);
    const controller = new AbortController();
    const execute = tools["everything__trigger-long-running-operation"]?.execute;
    expect(execute).toBeDefined();
    const pending = execute!(
      { duration: 30, steps: 3 },
      { toolCallId: "c", messages: [], abortSignal: controller.signal, context: {} },
    );
    controller.abort();
    const output = await (pending as Promise<{ success: boolean; errorKind?: string }>);
    expect(output).toMatchObject({ success: false, errorKind: "cancelled" });
  });
});

describe.skipIf(nodeMajor < 22)("AI SDK bridge approval against a real server-memory", () => {
  const registry = new ToolRegistry();
  let server: RegisteredMemoryServer;
  let memoryFile: string;

  beforeAll(async () => {
    server = await registerMemoryServer("ai-sdk-bridge-", registry);
    memoryFile = server.memoryFile;
  });

  afterAll(async () => {
    await server.close();
  });

  const createAda = { entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] };

  it("asks for approval before a write tool runs under the default policy", async () => {
    const model = new MockLanguageModelV4({ doGenerate: [toolCallStep("memory__create_entities", createAda)] });
    const result = await generateText({
      model: model as LanguageModel,
      tools: createAISDKTools(registry),
      prompt: "remember Ada",
      stopWhen: stepCountIs(3),
    });

    expect(result.content).toContainEqual(
      expect.objectContaining({
        type: "tool-approval-request",
        toolCall: expect.objectContaining({ toolName: "memory__create_entities" }) as unknown,
      }),
    );
    expect(result.toolResults).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);
    const graph = await registry.call("memory/read_graph", {});
    expect(JSON.stringify(graph.data)).not.toContain("Ada");
  });

  it("runs read tools without asking, and write tools too under the policy 'never'", async () => {
    const model = new MockLanguageModelV4({
      doGenerate: [toolCallStep("memory__create_entities", createAda), textStep("remembered")],
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools: createAISDKTools(registry, { approval: "never" }),
      prompt: "remember Ada",
      stopWhen: stepCountIs(3),
    });

    expect(result.text).toBe("remembered");
    expect(await readFile(memoryFile, "utf8")).toContain("Ada");
  });
});
