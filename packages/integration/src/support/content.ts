/** The text items of a tool result's `content` list, joined by newlines ("" when there are none). */
export function contentText(data: unknown): string {
  const content = typeof data === "object" && data !== null ? (data as { content?: unknown }).content : undefined;
  if (!Array.isArray(content)) return "";
  return content
    .map((item: unknown) => (typeof item === "object" && item !== null ? (item as { text?: unknown }).text : undefined))
    .filter((text): text is string => typeof text === "string")
    .join("\n");
}
