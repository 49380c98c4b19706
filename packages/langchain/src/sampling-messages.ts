import type {
  MCPSamplingContent,
  MCPSamplingMessage,
  MCPSamplingRequest,
  MCPSamplingStopReason,
  MCPToolResultContent,
} from "@mcp-tool-adapter/core";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { LangChainSamplingError } from "./sampling-error.js";

/** One block of a human message's content (a standard text, image or data block). */
type HumanPart = Record<string, unknown> & { type: string };

/**
 * A sampling request's conversation as LangChain messages: the system prompt, user turns (text,
 * images, audio), assistant turns (text, and `tool_use` blocks as the AIMessage's `tool_calls`),
 * and a user turn of `tool_result` blocks as one ToolMessage per result. The spec's tool-use rules
 * are checked here, where the message can say where the conversation breaks them: a user turn with
 * `tool_result` blocks holds nothing else and answers every `tool_use` of the assistant turn before.
 */
export function toLangChainMessages(request: MCPSamplingRequest): BaseMessage[] {
  const messages: BaseMessage[] = request.systemPrompt === undefined ? [] : [new SystemMessage(request.systemPrompt)];
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
      for (const result of results) messages.push(toToolMessage(result, openToolUses, where));
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
      const assistant = toAIMessage(blocks, where);
      openToolUses = new Map((assistant.tool_calls ?? []).map((call) => [call.id ?? "", call.name]));
      messages.push(assistant);
    } else {
      messages.push(
        new HumanMessage({ content: blocks.map((block, at) => toHumanPart(block, `${where}.content[${at}]`)) }),
      );
    }
  });
  return messages;
}

function blocksOf(message: MCPSamplingMessage): MCPSamplingContent[] {
  return Array.isArray(message.content) ? message.content : [message.content];
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

function toAIMessage(blocks: MCPSamplingContent[], where: string): AIMessage {
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
function toToolMessage(result: MCPToolResultContent, openToolUses: Map<string, string>, where: string): ToolMessage {
  const name = openToolUses.get(result.toolUseId);
  if (name === undefined) {
    throw invalid(`${where}: tool_result ${result.toolUseId} answers no tool_use of the assistant turn before`);
  }
  openToolUses.delete(result.toolUseId);
  const text = result.content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  const content =
    text.length === 0 && result.structuredContent !== undefined
      ? JSON.stringify(result.structuredContent)
      : text.join("\n");
  return new ToolMessage({
    content,
    tool_call_id: result.toolUseId,
    name,
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

function invalid(message: string): LangChainSamplingError {
  return new LangChainSamplingError("SAMPLING_REQUEST_INVALID", `Invalid sampling/createMessage request: ${message}`);
}
