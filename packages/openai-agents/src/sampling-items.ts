import type {
  MCPSamplingContent,
  MCPSamplingMessage,
  MCPSamplingRequest,
  MCPToolResultContent,
} from "@mcp-tool-adapter/core";
import type { AgentInputItem } from "@openai/agents";
import { OpenAIAgentsSamplingError } from "./sampling-error.js";

/**
 * A sampling request's conversation as Agents SDK input items: user turns as user messages (text,
 * images), assistant text as assistant messages, `tool_use` blocks as `function_call` items and
 * `tool_result` blocks as `function_call_result` items naming the tool their call used. The spec's
 * tool-use rules are checked here, where the message can say where the conversation breaks them.
 */
export function toAgentInputItems(request: MCPSamplingRequest): AgentInputItem[] {
  const items: AgentInputItem[] = [];
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
      for (const result of results) items.push(toResultItem(result, openToolUses, where));
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
      openToolUses = new Map();
      blocks.forEach((block, at) => {
        if (block.type === "text") {
          items.push({
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: block.text }],
          });
        } else if (block.type === "tool_use") {
          openToolUses.set(block.id, block.name);
          items.push({
            type: "function_call",
            callId: block.id,
            name: block.name,
            arguments: JSON.stringify(block.input),
            status: "completed",
          });
        } else {
          throw invalid(`${where}.content[${at}]: an assistant message cannot hold a ${block.type} block`);
        }
      });
    } else {
      items.push({
        type: "message",
        role: "user",
        content: blocks.map((block, at) => toUserPart(block, `${where}.content[${at}]`)),
      });
    }
  });
  return items;
}

function blocksOf(message: MCPSamplingMessage): MCPSamplingContent[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

function toUserPart(
  block: MCPSamplingContent,
  where: string,
): { type: "input_text"; text: string } | { type: "input_image"; image: string } {
  switch (block.type) {
    case "text":
      return { type: "input_text", text: block.text };
    case "image":
      return { type: "input_image", image: `data:${block.mimeType};base64,${block.data}` };
    default:
      throw invalid(`${where}: a user message here cannot hold a ${block.type} block`);
  }
}

/** A tool's result as the model reads it: its text (or structured content as JSON); a failure says so. */
function toResultItem(result: MCPToolResultContent, openToolUses: Map<string, string>, where: string): AgentInputItem {
  const name = openToolUses.get(result.toolUseId);
  if (name === undefined) {
    throw invalid(`${where}: tool_result ${result.toolUseId} answers no tool_use of the assistant turn before`);
  }
  openToolUses.delete(result.toolUseId);
  const texts = result.content.flatMap((block) =>
    block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  const text =
    texts.length === 0 && result.structuredContent !== undefined
      ? JSON.stringify(result.structuredContent)
      : texts.join("\n");
  return {
    type: "function_call_result",
    callId: result.toolUseId,
    name,
    status: "completed",
    output: { type: "text", text: result.isError === true ? `Error: ${text}` : text },
  };
}

function invalid(message: string): OpenAIAgentsSamplingError {
  return new OpenAIAgentsSamplingError(
    "SAMPLING_REQUEST_INVALID",
    `Invalid sampling/createMessage request: ${message}`,
  );
}
