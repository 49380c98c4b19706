/**
 * A config that is plain JSON (no comments, no trailing commas, no byte order mark) and has no
 * duplicate key, read with JSON.parse; undefined for anything else, which the JSONC parser
 * reads and words the errors of. JSON.parse already keeps a `__proto__` key as data; it would
 * silently keep the last of two equal keys, so the property names in the text are counted
 * against the keys it built: fewer keys means a duplicate.
 */
export function parsePlainJson(text: string): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return propertyNamesIn(text) === keysIn(value) ? { value } : undefined;
}

/** How many strings in valid JSON text are property names (a string followed by `:`). */
function propertyNamesIn(text: string): number {
  let names = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] !== '"') continue;
    index += 1;
    while (text[index] !== '"') index += text[index] === "\\" ? 2 : 1;
    let next = index + 1;
    while (text[next] === " " || text[next] === "\t" || text[next] === "\n" || text[next] === "\r") next += 1;
    if (text[next] === ":") names += 1;
  }
  return names;
}

function keysIn(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
  let keys = Array.isArray(value) ? 0 : children.length;
  for (const child of children) keys += keysIn(child);
  return keys;
}
