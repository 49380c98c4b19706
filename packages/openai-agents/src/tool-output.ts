import { toModelContent, type ModelResultOptions } from "@mcp-tool-adapter/model-tools";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";

/** What a function tool returns to the Agents SDK: text, or text, image and file items when the result carries media. */
export type AgentsToolOutput =
  | string
  | Array<
      | { type: "text"; text: string }
      | { type: "image"; image: { data: string; mediaType: string } }
      | { type: "file"; file: { data: string; mediaType: string; filename: string } }
    >;

/** A tool result as the model reads it; a failure is text naming its errorKind and what to do next. */
export function toAgentsToolOutput(result: ToolCallResult, options: ModelResultOptions = {}): AgentsToolOutput {
  const { parts } = toModelContent(result, options);
  if (parts.every((part) => part.type === "text")) return parts.map((part) => part.text).join("\n");
  return parts.map((part) => {
    switch (part.type) {
      case "text":
        return { type: "text" as const, text: part.text };
      case "image":
        return { type: "image" as const, image: { data: part.data, mediaType: part.mimeType } };
      case "audio":
        return { type: "file" as const, file: { data: part.data, mediaType: part.mimeType, filename: "audio" } };
    }
  });
}
