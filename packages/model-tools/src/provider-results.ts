import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import { toModelContent, toModelText, type ModelResultOptions } from "./model-content.js";

export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

export type OpenAIResponsesOutputItem =
  { type: "input_text"; text: string } | { type: "input_image"; image_url: string; detail: "auto" };

export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  /** A string, or a list of text and image items when the result has images. */
  output: string | OpenAIResponsesOutputItem[];
}

export type AnthropicToolResultContent =
  { type: "text"; text: string } | { type: "image"; source: { type: "base64"; media_type: string; data: string } };

export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: AnthropicToolResultContent[];
  is_error?: boolean;
}

export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: { output: string } | { error: string } };
}

/** Image types Anthropic accepts in a tool_result. */
const ANTHROPIC_IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** OpenAI Chat Completions: the `tool` message answering one tool call (text only). */
export function toOpenAIChatToolMessage(
  callId: string,
  result: ToolCallResult,
  options?: ModelResultOptions,
): OpenAIChatToolMessage {
  return { role: "tool", tool_call_id: callId, content: toModelText(result, options) };
}

/** OpenAI Responses: a `function_call_output` item; images go as `input_image` items, audio as a note. */
export function toOpenAIResponsesOutput(
  callId: string,
  result: ToolCallResult,
  options?: ModelResultOptions,
): OpenAIResponsesFunctionCallOutput {
  const content = toModelContent(result, options);
  if (content.parts.every((part) => part.type === "text")) {
    return {
      type: "function_call_output",
      call_id: callId,
      output: content.parts.map((part) => (part as { text: string }).text).join("\n"),
    };
  }
  const output: OpenAIResponsesOutputItem[] = content.parts.map((part) => {
    if (part.type === "text") return { type: "input_text", text: part.text };
    if (part.type === "image")
      return { type: "input_image", image_url: `data:${part.mimeType};base64,${part.data}`, detail: "auto" };
    return {
      type: "input_text",
      text: `[audio: ${part.mimeType}; audio cannot be returned in a function call output]`,
    };
  });
  return { type: "function_call_output", call_id: callId, output };
}

/** Anthropic Messages: a `tool_result` block; `is_error` on failures, images as base64 image blocks. */
export function toAnthropicToolResult(
  toolUseId: string,
  result: ToolCallResult,
  options?: ModelResultOptions,
): AnthropicToolResultBlock {
  const { parts, isError } = toModelContent(result, options);
  const content: AnthropicToolResultContent[] = parts.map((part) => {
    if (part.type === "text") return { type: "text", text: part.text.trim() === "" ? "(empty text)" : part.text };
    if (part.type === "image" && ANTHROPIC_IMAGE_TYPES.has(part.mimeType)) {
      return { type: "image", source: { type: "base64", media_type: part.mimeType, data: part.data } };
    }
    return { type: "text", text: `[${part.type}: ${part.mimeType}; not a type Claude accepts in a tool result]` };
  });
  return { type: "tool_result", tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) };
}

/** Gemini: a `functionResponse` part; the text under `output`, or under `error` for a failure. */
export function toGeminiFunctionResponse(
  callId: string | undefined,
  name: string,
  result: ToolCallResult,
  options?: ModelResultOptions,
): GeminiFunctionResponsePart {
  const text = toModelText(result, options);
  return {
    functionResponse: {
      ...(callId === undefined || callId === "" ? {} : { id: callId }),
      name,
      response: result.success ? { output: text } : { error: text },
    },
  };
}
