import { createAISDKTools } from "@mcp-tool-adapter/ai-sdk";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { FINAL_ANSWER, type AgentStepRunner } from "./types.js";

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** One generateText run with the AI SDK's mock model: a tool call, then the final answer. */
export const runAISDKStep: AgentStepRunner = async (registry, settings, call) => {
  const model = new MockLanguageModelV4({
    doGenerate: [
      {
        content: [{ type: "tool-call", toolCallId: "call-1", toolName: call.name, input: JSON.stringify(call.args) }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      },
      {
        content: [{ type: "text", text: FINAL_ANSWER }],
        finishReason: { unified: "stop", raw: undefined },
        usage,
        warnings: [],
      },
    ],
  });
  const tools = createAISDKTools(registry, {
    approval: settings.approval,
    ...(settings.maxChars === undefined ? {} : { result: { maxChars: settings.maxChars } }),
  });
  const result = await generateText({
    model: model as LanguageModel,
    tools,
    prompt: "Use the tool.",
    stopWhen: stepCountIs(3),
  });

  const toolParts = (model.doGenerateCalls[1]?.prompt ?? [])
    .filter((message) => message.role === "tool")
    .flatMap((message) => message.content);
  const output = (toolParts[0] as { output?: { value?: unknown } } | undefined)?.output?.value;
  return {
    ...(typeof output === "string" ? { toolResultText: output } : {}),
    ...(result.text === "" ? {} : { finalAnswer: result.text }),
    approvalRequestedFor: result.content.flatMap((part) =>
      part.type === "tool-approval-request" ? [part.toolCall.toolName] : [],
    ),
  };
};
