import { toModelContent, type ModelResultOptions } from "@mcp-tool-adapter/model-tools";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";

/** What a LangChain ToolMessage carries for the model: a string, or standard content blocks when there are images or audio. */
export type LangChainToolContent =
  string | Array<{ type: "text"; text: string } | { type: "image" | "audio"; mimeType: string; data: string }>;

export function toLangChainContent(
  result: ToolCallResult,
  options: ModelResultOptions = {},
): { content: LangChainToolContent; isError: boolean } {
  const { parts, isError } = toModelContent(result, options);
  if (parts.every((part) => part.type === "text")) {
    return { content: parts.map((part) => part.text).join("\n"), isError };
  }
  const blocks = parts.map((part) =>
    part.type === "text"
      ? { type: "text" as const, text: part.text }
      : { type: part.type, mimeType: part.mimeType, data: part.data },
  );
  return { content: blocks, isError };
}
