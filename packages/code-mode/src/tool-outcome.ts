import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import type { ToolCallOutcome } from "./sandbox/run-types.js";

/**
 * What a program receives from a tool call: an MCP result's `structuredContent` when the server
 * gave one (typed by its output schema), else the text of its content blocks (media as a short
 * note: a program cannot look at an image); another source's data as it is.
 */
export function toToolCallOutcome(result: ToolCallResult): ToolCallOutcome {
  if (!result.success) {
    return { ok: false, error: result.error ?? "the tool call failed", errorKind: result.errorKind ?? "server_error" };
  }
  const data = result.data;
  if (!isRecord(data) || !Array.isArray(data["content"])) return { ok: true, value: data ?? null };
  if (data["structuredContent"] !== undefined) return { ok: true, value: data["structuredContent"] };
  return { ok: true, value: data["content"].map((block) => blockText(block)).join("\n") };
}

function blockText(block: unknown): string {
  if (!isRecord(block)) return "";
  if (block["type"] === "text" && typeof block["text"] === "string") return block["text"];
  if (block["type"] === "resource" && isRecord(block["resource"]) && typeof block["resource"]["text"] === "string") {
    return block["resource"]["text"];
  }
  const mime = typeof block["mimeType"] === "string" ? ` ${block["mimeType"]}` : "";
  const uri = typeof block["uri"] === "string" ? ` ${block["uri"]}` : "";
  return `[${String(block["type"])}${mime}${uri}]`;
}
