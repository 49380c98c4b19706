import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import { failureText } from "./failure-text.js";

export interface ModelResultOptions {
  /** Most characters of text the model gets; default 20,000. Longer text is cut with a visible marker. */
  maxChars?: number;
  /** Largest image or audio part kept, in decoded bytes; default 5 MiB. A larger one becomes a text note. */
  maxMediaBytes?: number;
}

/** Provider-neutral content; each provider shape is built from these. */
export type ModelContentPart =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string };

export interface ModelContent {
  parts: ModelContentPart[];
  isError: boolean;
  /** True when text was cut (and the marker added) to stay within `maxChars`. */
  truncated: boolean;
}

export const DEFAULT_MODEL_RESULT_MAX_CHARS = 20_000;
export const DEFAULT_MODEL_RESULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024;
const NO_CONTENT = "(the tool returned no content)";

/** A tool result as content parts for a model: images and audio as they are, everything else as text. */
export function toModelContent(result: ToolCallResult, options: ModelResultOptions = {}): ModelContent {
  return budget(
    collectParts(result, true, options.maxMediaBytes ?? DEFAULT_MODEL_RESULT_MAX_MEDIA_BYTES),
    !result.success,
    options.maxChars ?? DEFAULT_MODEL_RESULT_MAX_CHARS,
  );
}

/** A tool result as one text for a model; images and audio appear as short notes. Never throws. */
export function toModelText(result: ToolCallResult, options: ModelResultOptions = {}): string {
  const { parts } = budget(
    collectParts(result, false, 0),
    !result.success,
    options.maxChars ?? DEFAULT_MODEL_RESULT_MAX_CHARS,
  );
  return parts.length === 1
    ? (parts[0] as { text: string }).text
    : parts.map((part) => (part as { text: string }).text).join("\n");
}

function collectParts(result: ToolCallResult, withMedia: boolean, maxMediaBytes: number): ModelContentPart[] {
  if (!result.success) return [{ type: "text", text: failureText(result) }];
  const data = result.data;
  if (data === undefined || data === null) return [{ type: "text", text: NO_CONTENT }];
  if (typeof data === "string") return [{ type: "text", text: data }];
  if (typeof data === "object" && Array.isArray((data as { content?: unknown }).content)) {
    return mcpParts(data as { content: unknown[]; structuredContent?: unknown }, withMedia, maxMediaBytes);
  }
  return [{ type: "text", text: jsonText(data) }];
}

/** MCP content blocks (text, image, audio, resource links, embedded resources) plus structuredContent. */
function mcpParts(
  data: { content: unknown[]; structuredContent?: unknown },
  withMedia: boolean,
  maxMediaBytes: number,
): ModelContentPart[] {
  const parts: ModelContentPart[] = [];
  for (const block of data.content) {
    const part = blockPart(block, withMedia, maxMediaBytes);
    if (part !== undefined) parts.push(part);
  }
  const structured = data.structuredContent;
  if (structured !== undefined && !coveredByText(structured, parts)) {
    parts.push({ type: "text", text: jsonText(structured) });
  }
  if (parts.length === 0) parts.push({ type: "text", text: NO_CONTENT });
  return parts;
}

function blockPart(block: unknown, withMedia: boolean, maxMediaBytes: number): ModelContentPart | undefined {
  if (typeof block !== "object" || block === null)
    return block === undefined ? undefined : { type: "text", text: jsonText(block) };
  const item = block as Record<string, unknown>;
  switch (item.type) {
    case "text":
      return typeof item.text === "string" ? { type: "text", text: item.text } : undefined;
    case "image":
    case "audio": {
      const data = typeof item.data === "string" ? item.data : "";
      const mimeType = typeof item.mimeType === "string" ? item.mimeType : "application/octet-stream";
      const bytes = base64Bytes(data);
      if (withMedia && bytes <= maxMediaBytes) return { type: item.type, data, mimeType };
      const why = withMedia ? `, more than the ${formatBytes(maxMediaBytes)} limit, left out` : ", not shown as text";
      return { type: "text", text: `[${item.type}: ${mimeType}, ${formatBytes(bytes)}${why}]` };
    }
    case "resource_link":
      return { type: "text", text: `[resource link: ${describeResource(item)}]` };
    case "resource":
      return { type: "text", text: embeddedResourceText(item.resource) };
    default:
      return { type: "text", text: jsonText(block) };
  }
}

function describeResource(item: Record<string, unknown>): string {
  const name = typeof item.name === "string" && item.name !== "" ? `${item.name} ` : "";
  const uri = typeof item.uri === "string" ? `<${item.uri}>` : "<no uri>";
  const mime = typeof item.mimeType === "string" ? ` (${item.mimeType})` : "";
  const description = typeof item.description === "string" && item.description !== "" ? `: ${item.description}` : "";
  return `${name}${uri}${mime}${description}`;
}

function embeddedResourceText(resource: unknown): string {
  if (typeof resource !== "object" || resource === null) return `[resource: ${jsonText(resource)}]`;
  const item = resource as Record<string, unknown>;
  if (typeof item.text === "string") return `[resource: ${describeResource(item)}]\n${item.text}`;
  const size = typeof item.blob === "string" ? `, ${formatBytes(base64Bytes(item.blob))} of binary data not shown` : "";
  return `[resource: ${describeResource(item)}${size}]`;
}

/** Cuts text parts to `maxChars` in all, with a marker the model can see; media parts are kept. */
function budget(parts: ModelContentPart[], isError: boolean, maxChars: number): ModelContent {
  let total = 0;
  for (const part of parts) if (part.type === "text") total += part.text.length;
  if (total <= maxChars) return { parts, isError, truncated: false };
  let left = maxChars;
  const kept: ModelContentPart[] = [];
  for (const part of parts) {
    if (part.type !== "text") {
      kept.push(part);
    } else if (left > 0) {
      const text = part.text.length <= left ? part.text : cutAt(part.text, left);
      left -= text.length;
      kept.push(text === part.text ? part : { type: "text", text });
    }
  }
  const shown = maxChars - Math.max(left, 0);
  const marker = `[truncated: showing ${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} characters. Ask the tool for less (a narrower query, a smaller range) to see the rest.]`;
  kept.push({ type: "text", text: marker });
  return { parts: kept, isError, truncated: true };
}

/** The first `length` UTF-16 units, one fewer when that would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** Leaves looked at before deciding the text does not repeat structuredContent. */
const MAX_COVERAGE_LEAVES = 1_000;

/**
 * Whether the text parts already say what structuredContent says, so it need not be sent twice:
 * the same JSON (what MCP asks servers to send), or text containing every string and number leaf
 * (servers that send a readable text of the same data, like server-filesystem).
 */
function coveredByText(structured: unknown, parts: readonly ModelContentPart[]): boolean {
  const texts = parts
    .filter((part): part is { type: "text"; text: string } => part.type === "text")
    .map((part) => part.text);
  if (texts.length === 0) return false;
  if (texts.some((text) => sameJson(text, structured))) return true;
  const joined = texts.join("\n");
  const stack: unknown[] = [structured];
  let leaves = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string" || typeof value === "number") {
      leaves += 1;
      if (leaves > MAX_COVERAGE_LEAVES || !joined.includes(String(value))) return false;
    } else if (typeof value === "object" && value !== null) {
      for (const item of Object.values(value)) stack.push(item);
    }
  }
  return true;
}

function sameJson(text: string, value: unknown): boolean {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return false;
  try {
    return JSON.stringify(JSON.parse(trimmed)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

const stringify: (value: unknown, replacer?: null, space?: number) => string | undefined = JSON.stringify;

function jsonText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return stringify(value, null, 2) ?? typeof value;
  } catch {
    return `[a ${typeof value} value that cannot be shown as JSON]`;
  }
}

/** Decoded size of base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
