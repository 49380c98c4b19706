import {
  chooseSamplingModel,
  samplingAnswer,
  type MCPSamplingContent,
  type MCPSamplingHandler,
  type MCPSamplingModelChoice,
  type MCPSamplingResponse,
  type MCPSamplingTool,
} from "@mcp-tool-adapter/core";
import { generateText, jsonSchema, tool, type JSONSchema7, type LanguageModel, type ToolSet } from "ai";
import { AISDKSamplingError } from "./sampling-error.js";
import { toModelMessages, toStopReason } from "./sampling-messages.js";

export interface AISDKSamplingHandlerOptions {
  /** The model that answers, or a function choosing one per request. */
  model: MCPSamplingModelChoice<LanguageModel>;
  /** Extra `generateText` settings (provider options, headers, retries); the request's own settings win. */
  settings?: AISDKSamplingSettings;
}

/** What of `generateText`'s options the handler leaves to you; the rest comes from the server's request. */
export type AISDKSamplingSettings = Pick<
  Parameters<typeof generateText>[0],
  "providerOptions" | "headers" | "maxRetries" | "topP" | "topK" | "seed"
>;

/**
 * A sampling handler (`onSampling`) that answers a server's `sampling/createMessage` with your
 * own AI SDK model: the conversation, system prompt, token limit, temperature and stop sequences
 * of the request, and its `tools` / `toolChoice` when it sends them (declare `samplingTools: true`
 * on the adapter). The model does not run the tools: when it asks for some, the answer carries
 * `tool_use` blocks with `stopReason: "toolUse"`, the server runs them and samples again with
 * their `tool_result`s, and this handler converts the whole conversation each time.
 */
export function createAISDKSamplingHandler(options: AISDKSamplingHandlerOptions): MCPSamplingHandler {
  return async (request, context) => {
    const model = chooseSamplingModel(options.model, request, context);
    const tools = toToolSet(request.tools);
    const result = await generateText({
      ...options.settings,
      model,
      messages: toModelMessages(request),
      maxOutputTokens: request.maxTokens,
      abortSignal: context.signal,
      ...(request.systemPrompt === undefined ? {} : { instructions: request.systemPrompt }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.stopSequences === undefined ? {} : { stopSequences: request.stopSequences }),
      ...(tools === undefined ? {} : { tools, toolChoice: request.toolChoice?.mode ?? "auto" }),
    });
    return toSamplingResponse(result, modelIdOf(model));
  };
}

/** The request's tools as AI SDK tools without `execute`: the model may call them, the server runs them. */
function toToolSet(tools: readonly MCPSamplingTool[] | undefined): ToolSet | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return Object.fromEntries(
    tools.map((definition) => [
      definition.name,
      tool({
        ...(definition.description === undefined ? {} : { description: definition.description }),
        inputSchema: jsonSchema(definition.inputSchema as JSONSchema7),
      }),
    ]),
  );
}

type GenerateTextResult = Awaited<ReturnType<typeof generateText>>;

function toSamplingResponse(result: GenerateTextResult, fallbackModelId: string): MCPSamplingResponse {
  const content: MCPSamplingContent[] = result.content.flatMap((part): MCPSamplingContent[] => {
    if (part.type === "text") return part.text === "" ? [] : [{ type: "text", text: part.text }];
    if (part.type === "tool-call") {
      return [
        { type: "tool_use", id: part.toolCallId, name: part.toolName, input: part.input as Record<string, unknown> },
      ];
    }
    return [];
  });
  return samplingAnswer(
    {
      content,
      model: result.finalStep.response.modelId || fallbackModelId,
      stopReason: toStopReason(result.finishReason),
    },
    () =>
      new AISDKSamplingError(
        "SAMPLING_ANSWER_EMPTY",
        `The model's answer to sampling/createMessage has neither text nor tool calls (finish reason "${result.finishReason}"); check the model and its settings`,
      ),
  );
}

function modelIdOf(model: LanguageModel): string {
  return typeof model === "string" ? model : model.modelId;
}
