import {
  invalidSamplingRequest,
  samplingTurns,
  toolResultText,
  type MCPPairedToolResult,
  type MCPSamplingContent,
  type MCPSamplingRequest,
  type MCPSamplingStopReason,
} from "@mcp-tool-adapter/core";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { LangChainSamplingError } from "./sampling-error.js";

/** One block of a human message's content (a standard text, image or data block). */
type HumanPart = Record<string, unknown> & { type: string };

/**
 * A sampling request's conversation as LangChain messages: the system prompt, user turns (text,
 * images, audio), assistant turns (text, and `tool_use` blocks as the AIMessage's `tool_calls`),
 * and a user turn of `tool_result` blocks as one ToolMessage per result. The spec's tool-use rules
 * are checked by core's `samplingTurns`, raised as this bridge's error.
 */
export function toLangChainMessages(request: MCPSamplingRequest): BaseMessage[] {
  const messages: BaseMessage[] = request.systemPrompt === undefined ? [] : [new SystemMessage(request.systemPrompt)];
  for (const turn of samplingTurns(request, invalid)) {
    if (turn.kind === "tool_results") messages.push(...turn.results.map(toToolMessage));
    else if (turn.kind === "assistant") messages.push(toAIMessage(turn.blocks, turn.where));
    else {
      messages.push(
        new HumanMessage({
          content: turn.blocks.map((block, at) => toHumanPart(block, `${turn.where}.content[${at}]`)),
        }),
      );
    }
  }
  return messages;
}

function toHumanPart(block: MCPSamplingContent, where: string): HumanPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
    case "audio":
      return { type: "audio", source_type: "base64", mime_type: block.mimeType, data: block.data };
    default:
      throw invalid(`${where}: a user message cannot hold a ${block.type} block`);
  }
}

function toAIMessage(blocks: readonly MCPSamplingContent[], where: string): AIMessage {
  const text: string[] = [];
  const toolCalls: { id: string; name: string; args: Record<string, unknown>; type: "tool_call" }[] = [];
  blocks.forEach((block, at) => {
    if (block.type === "text") text.push(block.text);
    else if (block.type === "tool_use")
      toolCalls.push({ id: block.id, name: block.name, args: block.input, type: "tool_call" });
    else throw invalid(`${where}.content[${at}]: an assistant message cannot hold a ${block.type} block`);
  });
  return new AIMessage({ content: text.join("\n"), tool_calls: toolCalls });
}

/** A tool's result as the model reads it: its text (or structured content), `status: "error"` when it failed. */
function toToolMessage({ result, toolName }: MCPPairedToolResult): ToolMessage {
  return new ToolMessage({
    content: toolResultText(result),
    tool_call_id: result.toolUseId,
    name: toolName,
    status: result.isError === true ? "error" : "success",
  });
}

/** The provider's finish reason (from the message's metadata) as MCP's stop reason; tool calls win. */
export function toStopReason(message: AIMessage): MCPSamplingStopReason {
  if ((message.tool_calls ?? []).length > 0) return "toolUse";
  const metadata = message.response_metadata as Record<string, unknown>;
  const reason = metadata.finish_reason ?? metadata.stop_reason;
  switch (reason) {
    case "length":
    case "max_tokens":
      return "maxTokens";
    case "stop_sequence":
      return "stopSequence";
    case "tool_calls":
    case "tool_use":
      return "toolUse";
    default:
      return "endTurn";
  }
}

const invalid = invalidSamplingRequest((code, message) => new LangChainSamplingError(code, message));
