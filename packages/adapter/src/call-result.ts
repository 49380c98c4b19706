import { isRecord } from "@mcp-tool-adapter/core/value-rules";
import type { MCPToolResultData } from "./types.js";

/**
 * Brings any `tools/call` answer into `{ content: [...] , ...rest }`. Current results pass through
 * untouched (no copy on the hot path); a bare content list (MCP 1.4.0) and the 2024-10-07
 * `toolResult` shape are wrapped; anything else becomes text content so nothing is lost.
 */
export function normalizeCallResult(raw: unknown): MCPToolResultData {
  // The current shape, untouched, returns last: V8 tiers a function up after a number of calls
  // scaled by the share of its bytecode each call runs up to its return.
  const record = isRecord(raw) ? raw : undefined;
  const content = record?.content;
  if (record === undefined || !Array.isArray(content) || (content.length === 0 && "toolResult" in record))
    return normalizeOtherResult(raw);
  return record as MCPToolResultData;
}

/** normalizeCallResult for every shape (the current one included). */
function normalizeOtherResult(raw: unknown): MCPToolResultData {
  if (Array.isArray(raw)) return { content: raw as unknown[] };
  if (typeof raw !== "object" || raw === null) {
    return { content: raw === null || raw === undefined ? [] : [{ type: "text", text: textOf(raw) }] };
  }
  const record = raw as Record<string, unknown>;
  const content = record.content;
  // An empty list beside a toolResult is a client's filled-in default (the SDK v2 client sets
  // `content: []` on the 2024-10-07 shape): the toolResult is the answer.
  if (Array.isArray(content) && (content.length > 0 || !("toolResult" in record))) return record as MCPToolResultData;
  if (content !== undefined && !Array.isArray(content)) return { ...record, content: [content] };
  if ("toolResult" in record) return { ...record, content: toContentList(record.toolResult) };
  return { ...record, content: [] };
}

function toContentList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value as unknown[];
  if (value === undefined || value === null) return [];
  return [{ type: "text", text: textOf(value) }];
}

/** JSON.stringify as it behaves: undefined for functions, symbols and undefined. */
const stringifyJson: (value: unknown) => string | undefined = JSON.stringify;

/** Text for a non-content value: strings as they are, everything else as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    // JSON.stringify returns undefined for functions and symbols despite its declared type.
    const json = stringifyJson(value);
    return json ?? typeof value;
  } catch {
    return typeof value;
  }
}

/** The text a server put in an `isError` result, for the error message. */
export function contentText(data: MCPToolResultData): string {
  const parts: string[] = [];
  for (const item of data.content) {
    if (typeof item === "object" && item !== null && typeof (item as { text?: unknown }).text === "string") {
      parts.push((item as { text: string }).text);
    }
  }
  return parts.join("\n").trim();
}

/**
 * True when `value` serialised as JSON would exceed `limit` bytes. Walks the value and stops as
 * soon as the budget is spent, so a huge result costs no more than `limit` bytes of work and
 * nothing is stringified. Strings count as their UTF-8 bytes without JSON escaping, so the
 * measure is the payload's size: exact for ordinary text, low for text full of escapes.
 */
export function exceedsJsonBytes(value: unknown, limit: number): boolean {
  let budget = limit;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      // The UTF-16 length is a lower bound of the UTF-8 size: a long string fails fast.
      budget -= item.length + 2;
      if (budget < 0) return true;
      budget -= utf8ExtraBytes(item);
    } else if (typeof item === "number") {
      budget -= String(item).length;
    } else if (typeof item === "boolean" || item === null) {
      budget -= 5;
    } else if (typeof item === "object") {
      if (seen.has(item)) continue;
      seen.add(item);
      if (Array.isArray(item)) {
        budget -= 2 + item.length;
        for (const element of item) stack.push(element);
      } else {
        for (const key in item) {
          budget -= key.length + 4;
          stack.push((item as Record<string, unknown>)[key]);
        }
        budget -= 2;
      }
    }
    if (budget < 0) return true;
  }
  return false;
}

const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: "utf8"): number } }).Buffer;

/** UTF-8 bytes beyond one per UTF-16 code unit. */
function utf8ExtraBytes(text: string): number {
  if (nodeBuffer !== undefined) return nodeBuffer.byteLength(text, "utf8") - text.length;
  let extra = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) extra += code >= 0x800 && (code < 0xd800 || code > 0xdfff) ? 2 : 1;
  }
  return extra;
}
