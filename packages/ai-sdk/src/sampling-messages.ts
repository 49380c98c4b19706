import type {
  MCPSamplingContent,
  MCPSamplingMessage,
  MCPSamplingRequest,
  MCPSamplingStopReason,
  MCPToolResultContent,
} from "@mcp-tool-adapter/core";
import type { AssistantModelMessage, FinishReason, ModelMessage, ToolModelMessage, UserModelMessage } from "ai";
import { AISDKSamplingError } from "./sampling-error.js";

type UserPart = Exclude<UserModelMessage["content"], string>[number];
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type ToolResultOutput = Extract<ToolModelMessage["content"][number], { type: "tool-result" }>["output"];

/**
 * A sampling request's conversation as AI SDK messages. The tool-use rules of the spec are checked
 * here, because a provider would refuse the conversation with a less helpful message: a user turn
 * with `tool_result` blocks holds nothing else, and answers every `tool_use` of the assistant turn
 * before it (a result becomes a `tool` message naming the tool its `tool_use` called).
 */
export function toModelMessages(request: MCPSamplingRequest): ModelMessage[] {
  const messages: ModelMessage[] = [];
  /** The tool names of the last assistant turn's `tool_use` blocks, by id, until their results come. */
  let openToolUses = new Map<string, string>();
  request.messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    const where = `messages[${index}]`;
    const results = blocks.filter((block): block is MCPToolResultContent => block.type === "tool_result");
    if (results.length > 0) {
      if (message.role !== "user" || results.length !== blocks.length) {
        throw invalid(`${where}: tool_result blocks must be the only content of a user message`);
      }
      messages.push(toToolMessage(results, openToolUses, where));
      if (openToolUses.size > 0) {
        throw invalid(
          `${where}: no tool_result for tool_use ${[...openToolUses.keys()].join(", ")} of the turn before`,
        );
      }
      return;
    }
    if (openToolUses.size > 0) {
      throw invalid(
        `${where}: the tool_use ${[...openToolUses.keys()].join(", ")} of the turn before has no tool_result`,
      );
    }
    if (message.role === "assistant") {
      const parts = blocks.map((block, blockIndex) => toAssistantPart(block, `${where}.content[${blockIndex}]`));
      openToolUses = new Map(
        parts.flatMap((part) => (part.type === "tool-call" ? [[part.toolCallId, part.toolName]] : [])),
      );
      messages.push({ role: "assistant", content: parts });
    } else {
      messages.push({
        role: "user",
        content: blocks.map((block, blockIndex) => toUserPart(block, `${where}.content[${blockIndex}]`)),
      });
    }
  });
  return messages;
}

function blocksOf(message: MCPSamplingMessage): MCPSamplingContent[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

function toUserPart(block: MCPSamplingContent, where: string): UserPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", image: block.data, mediaType: block.mimeType };
    case "audio":
      return { type: "file", data: block.data, mediaType: block.mimeType };
    default:
      throw invalid(`${where}: a user message cannot hold a ${block.type} block`);
  }
}

function toAssistantPart(block: MCPSamplingContent, where: string): AssistantPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "tool_use":
      return { type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.input };
    case "image":
    case "audio":
      return { type: "file", data: block.data, mediaType: block.mimeType };
    default:
      throw invalid(`${where}: an assistant message cannot hold a ${block.type} block`);
  }
}

function toToolMessage(
  results: MCPToolResultContent[],
  openToolUses: Map<string, string>,
  where: string,
): ToolModelMessage {
  return {
    role: "tool",
    content: results.map((result) => {
      const toolName = openToolUses.get(result.toolUseId);
      if (toolName === undefined) {
        throw invalid(`${where}: tool_result ${result.toolUseId} answers no tool_use of the assistant turn before`);
      }
      openToolUses.delete(result.toolUseId);
      return { type: "tool-result", toolCallId: result.toolUseId, toolName, output: toToolOutput(result) };
    }),
  };
}

/** A tool's result as the model reads it: its text (or structured content), error text when it failed. */
function toToolOutput(result: MCPToolResultContent): ToolResultOutput {
  const text = result.content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  if (result.isError === true) return { type: "error-text", value: text.join("\n") };
  if (result.structuredContent !== undefined && text.length === 0) {
    return { type: "json", value: result.structuredContent as never };
  }
  return { type: "text", value: text.join("\n") };
}

/** The AI SDK's finish reason as MCP's stop reason (a provider's other reasons pass through by name). */
export function toStopReason(reason: FinishReason): MCPSamplingStopReason {
  switch (reason) {
    case "stop":
      return "endTurn";
    case "length":
      return "maxTokens";
    case "tool-calls":
      return "toolUse";
    default:
      return reason;
  }
}

function invalid(message: string): AISDKSamplingError {
  return new AISDKSamplingError("SAMPLING_REQUEST_INVALID", `Invalid sampling/createMessage request: ${message}`);
}
