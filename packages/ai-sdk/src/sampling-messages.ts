import {
  invalidSamplingRequest,
  samplingTurns,
  type MCPPairedToolResult,
  type MCPSamplingContent,
  type MCPSamplingRequest,
  type MCPSamplingStopReason,
  type MCPToolResultContent,
} from "@mcp-tool-adapter/core";
import type { AssistantModelMessage, FinishReason, ModelMessage, ToolModelMessage, UserModelMessage } from "ai";
import { AISDKSamplingError } from "./sampling-error.js";

type UserPart = Exclude<UserModelMessage["content"], string>[number];
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type ToolResultOutput = Extract<ToolModelMessage["content"][number], { type: "tool-result" }>["output"];

/**
 * A sampling request's conversation as AI SDK messages. core's `samplingTurns` checks the spec's
 * tool-use rules first, because a provider would refuse the conversation with a less helpful
 * message; a turn of tool results becomes a `tool` message naming the tool each `tool_use` called.
 */
export function toModelMessages(request: MCPSamplingRequest): ModelMessage[] {
  return samplingTurns(request, invalid).map((turn): ModelMessage => {
    if (turn.kind === "tool_results") return toToolMessage(turn.results);
    if (turn.kind === "assistant") {
      return {
        role: "assistant",
        content: turn.blocks.map((block, at) => toAssistantPart(block, `${turn.where}.content[${at}]`)),
      };
    }
    return { role: "user", content: turn.blocks.map((block, at) => toUserPart(block, `${turn.where}.content[${at}]`)) };
  });
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

function toToolMessage(results: readonly MCPPairedToolResult[]): ToolModelMessage {
  return {
    role: "tool",
    content: results.map(({ result, toolName }) => ({
      type: "tool-result",
      toolCallId: result.toolUseId,
      toolName,
      output: toToolOutput(result),
    })),
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

const invalid = invalidSamplingRequest((code, message) => new AISDKSamplingError(code, message));
