import {
  chooseSamplingModel,
  samplingAnswer,
  type MCPSamplingContent,
  type MCPSamplingHandler,
  type MCPSamplingModelChoice,
  type MCPSamplingResponse,
  type MCPSamplingTool,
} from "@mcp-tool-adapter/core";
import type { BaseChatModel, BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, type MessageContent } from "@langchain/core/messages";
import { LangChainSamplingError } from "./sampling-error.js";
import { toLangChainMessages, toStopReason } from "./sampling-messages.js";

export interface LangChainSamplingHandlerOptions {
  /**
   * The chat model that answers (one with `bindTools` when servers sample with tools), or a
   * function choosing one per request. Its own settings (max tokens, temperature) apply: LangChain
   * has no per-call option for them, so the request's `maxTokens` and `temperature` are not passed on.
   */
  model: MCPSamplingModelChoice<BaseChatModel>;
  /** The model name reported to the server when the answer's metadata names none; default: the model's `getName()`. */
  modelName?: string;
}

/**
 * A sampling handler (`onSampling`) that answers a server's `sampling/createMessage` with your own
 * LangChain chat model: the conversation and system prompt of the request, its stop sequences,
 * and its `tools` / `toolChoice` when it sends them (declare `samplingTools: true` on the adapter),
 * bound with the model's `bindTools`. The model does not run the tools: when it asks for some, the
 * answer carries `tool_use` blocks with `stopReason: "toolUse"`, the server runs them and samples
 * again with their `tool_result`s (ToolMessages here), and this handler converts the whole
 * conversation each time.
 */
export function createLangChainSamplingHandler(options: LangChainSamplingHandlerOptions): MCPSamplingHandler {
  return async (request, context) => {
    const model = chooseSamplingModel(options.model, request, context);
    const messages = toLangChainMessages(request);
    const callOptions: Partial<BaseChatModelCallOptions> = { signal: context.signal };
    if (request.stopSequences !== undefined) callOptions.stop = request.stopSequences;
    const tools = request.tools ?? [];
    let answer: BaseMessage;
    if (tools.length > 0 && request.toolChoice?.mode !== "none") {
      if (model.bindTools === undefined) {
        throw new LangChainSamplingError(
          "SAMPLING_TOOLS_UNSUPPORTED",
          `The server asked to sample with tools (${tools.map((tool) => tool.name).join(", ")}), but the chat model "${model.getName()}" has no bindTools; pass a model that supports tool calling`,
        );
      }
      callOptions.tool_choice = request.toolChoice?.mode === "required" ? "any" : "auto";
      answer = await model.bindTools(tools.map(toToolSpec)).invoke(messages, callOptions);
    } else {
      answer = await model.invoke(messages, callOptions);
    }
    return toSamplingResponse(answer, options.modelName ?? model.getName());
  };
}

/** A sampling tool as the OpenAI-style function definition every LangChain chat model's `bindTools` takes. */
function toToolSpec(tool: MCPSamplingTool): {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown> };
} {
  return {
    type: "function",
    function: {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.inputSchema,
    },
  };
}

function toSamplingResponse(answer: BaseMessage, fallbackModelName: string): MCPSamplingResponse {
  const message = AIMessage.isInstance(answer) ? answer : new AIMessage({ content: answer.content });
  const content: MCPSamplingContent[] = textsOf(message.content).map((text) => ({ type: "text", text }));
  for (const call of message.tool_calls ?? []) {
    content.push({ type: "tool_use", id: call.id ?? `call_${content.length}`, name: call.name, input: call.args });
  }
  const metadata = message.response_metadata as Record<string, unknown>;
  const named = metadata.model_name ?? metadata.model;
  return samplingAnswer(
    {
      content,
      model: typeof named === "string" && named !== "" ? named : fallbackModelName,
      stopReason: toStopReason(message),
    },
    () =>
      new LangChainSamplingError(
        "SAMPLING_ANSWER_EMPTY",
        `The chat model's answer to sampling/createMessage has neither text nor tool calls; check the model and its settings`,
      ),
  );
}

/** The text of a message's content: a string, or its text blocks (other blocks carry nothing MCP reads here). */
function textsOf(content: MessageContent): string[] {
  if (typeof content === "string") return content === "" ? [] : [content];
  return content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" && block.text !== "" ? [block.text] : [],
  );
}
