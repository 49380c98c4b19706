import {
  chooseSamplingModel,
  samplingAnswer,
  type MCPSamplingContent,
  type MCPSamplingHandler,
  type MCPSamplingModelChoice,
  type MCPSamplingResponse,
  type MCPSamplingTool,
} from "@mcp-tool-adapter/core";
import type { Model, ModelRequest, ModelResponse } from "@openai/agents";
import { OpenAIAgentsSamplingError } from "./sampling-error.js";
import { toAgentInputItems } from "./sampling-items.js";

type SerializedTools = ModelRequest["tools"];

export interface OpenAIAgentsSamplingHandlerOptions {
  /**
   * The Agents SDK `Model` that answers (an `OpenAIResponsesModel`, `OpenAIChatCompletionsModel`,
   * `aisdk(...)`, your own), or a function choosing one per request.
   */
  model: MCPSamplingModelChoice<Model>;
  /** The model name reported to the server (a `Model` does not say its own). Default "openai-agents-model". */
  modelName?: string;
}

/**
 * A sampling handler (`onSampling`) that answers a server's `sampling/createMessage` with one
 * turn of your own Agents SDK `Model` (not an agent run: no tools are executed, no handoffs):
 * the conversation, system prompt, `maxTokens` and temperature of the request, and its `tools` /
 * `toolChoice` when it sends them (declare `samplingTools: true` on the adapter) as function
 * tools. When the model calls some, the answer carries `tool_use` blocks with
 * `stopReason: "toolUse"`, the server runs them and samples again with their `tool_result`s
 * (`function_call_result` items here). Stop sequences have no Agents SDK setting and are not passed on.
 */
export function createOpenAIAgentsSamplingHandler(options: OpenAIAgentsSamplingHandlerOptions): MCPSamplingHandler {
  return async (request, context) => {
    const model = chooseSamplingModel(options.model, request, context);
    const tools = request.tools ?? [];
    const response = await model.getResponse({
      ...(request.systemPrompt === undefined ? {} : { systemInstructions: request.systemPrompt }),
      input: toAgentInputItems(request),
      modelSettings: {
        maxTokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(tools.length === 0 ? {} : { toolChoice: request.toolChoice?.mode ?? "auto" }),
      },
      tools: tools.map(toFunctionTool),
      outputType: "text",
      handoffs: [],
      tracing: false,
      signal: context.signal,
    });
    return toSamplingResponse(response, options.modelName ?? "openai-agents-model");
  };
}

/** A sampling tool as the function tool a Model is given (not strict: the server's schema as it is). */
function toFunctionTool(tool: MCPSamplingTool): SerializedTools[number] {
  return {
    type: "function",
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.inputSchema as never,
    strict: false,
  };
}

function toSamplingResponse(response: ModelResponse, modelName: string): MCPSamplingResponse {
  const content: MCPSamplingContent[] = [];
  let cutShort = false;
  for (const item of response.output) {
    if (item.type === "message" && item.role === "assistant") {
      if (item.status === "incomplete") cutShort = true;
      for (const part of item.content) {
        if (part.type === "output_text" && part.text !== "") content.push({ type: "text", text: part.text });
      }
    } else if (item.type === "function_call") {
      content.push({
        type: "tool_use",
        id: item.callId,
        name: item.name,
        input: parseArguments(item.name, item.arguments),
      });
    }
  }
  const calls = content.some((block) => block.type === "tool_use");
  return samplingAnswer(
    { content, model: modelName, stopReason: calls ? "toolUse" : cutShort ? "maxTokens" : "endTurn" },
    () =>
      new OpenAIAgentsSamplingError(
        "SAMPLING_ANSWER_INVALID",
        "The model's answer to sampling/createMessage has neither text nor function calls; check the model and its settings",
      ),
  );
}

function parseArguments(name: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text === "" ? "{}" : text);
  } catch {
    value = undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OpenAIAgentsSamplingError(
      "SAMPLING_ANSWER_INVALID",
      `The model called tool "${name}" with arguments that are not a JSON object: ${text.slice(0, 200)}`,
    );
  }
  return value as Record<string, unknown>;
}
