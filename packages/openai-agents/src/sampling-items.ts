import {
  invalidSamplingRequest,
  samplingTurns,
  toolResultText,
  type MCPPairedToolResult,
  type MCPSamplingContent,
  type MCPSamplingRequest,
} from "@mcp-tool-adapter/core";
import type { AgentInputItem } from "@openai/agents";
import { OpenAIAgentsSamplingError } from "./sampling-error.js";

/**
 * A sampling request's conversation as Agents SDK input items: user turns as user messages (text,
 * images), assistant text as assistant messages, `tool_use` blocks as `function_call` items and
 * `tool_result` blocks as `function_call_result` items naming the tool their call used. The spec's
 * tool-use rules are checked by core's `samplingTurns`, raised as this bridge's error.
 */
export function toAgentInputItems(request: MCPSamplingRequest): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  for (const turn of samplingTurns(request, invalid)) {
    if (turn.kind === "tool_results") items.push(...turn.results.map(toResultItem));
    else if (turn.kind === "assistant")
      items.push(...turn.blocks.map((block, at) => toAssistantItem(block, `${turn.where}.content[${at}]`)));
    else {
      items.push({
        type: "message",
        role: "user",
        content: turn.blocks.map((block, at) => toUserPart(block, `${turn.where}.content[${at}]`)),
      });
    }
  }
  return items;
}

function toAssistantItem(block: MCPSamplingContent, where: string): AgentInputItem {
  if (block.type === "text") {
    return {
      type: "message",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: block.text }],
    };
  }
  if (block.type === "tool_use") {
    return {
      type: "function_call",
      callId: block.id,
      name: block.name,
      arguments: JSON.stringify(block.input),
      status: "completed",
    };
  }
  throw invalid(`${where}: an assistant message cannot hold a ${block.type} block`);
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
function toResultItem({ result, toolName }: MCPPairedToolResult): AgentInputItem {
  const text = toolResultText(result);
  return {
    type: "function_call_result",
    callId: result.toolUseId,
    name: toolName,
    status: "completed",
    output: { type: "text", text: result.isError === true ? `Error: ${text}` : text },
  };
}

const invalid = invalidSamplingRequest((code, message) => new OpenAIAgentsSamplingError(code, message));
