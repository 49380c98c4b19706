import { toModelContent, type ModelResultOptions } from "@mcp-tool-adapter/model-tools";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import type { ToolResultPart } from "ai";

type ToolResultOutput = ToolResultPart["output"];

/** The two content parts we send; named here so the SDK's deprecated part kinds are never chosen. */
type ContentOutput =
  { type: "text"; text: string } | { type: "file"; mediaType: string; data: { type: "data"; data: string } };

/**
 * A tool result as the AI SDK hands it to the model: plain text when the result is text only,
 * content parts when it carries images or audio, `error-text` for a failure (the run goes on and
 * the model reads what went wrong and what to do next).
 */
export function toAISDKModelOutput(result: ToolCallResult, options: ModelResultOptions = {}): ToolResultOutput {
  const { parts, isError } = toModelContent(result, options);
  const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  if (isError) return { type: "error-text", value: text };
  if (parts.every((part) => part.type === "text")) return { type: "text", value: text };
  const value = parts.map((part): ContentOutput =>
    part.type === "text"
      ? { type: "text", text: part.text }
      : { type: "file", mediaType: part.mimeType, data: { type: "data", data: part.data } },
  );
  return { type: "content", value };
}
