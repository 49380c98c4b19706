/** Words of a tool name that mark it read-only (the spec's table, exactly). */
export const READ_KEYWORDS: readonly string[] = Object.freeze(["read", "get", "list", "search", "find"]);

/** Words of a tool name that mark it as writing (the spec's table, exactly). */
export const WRITE_KEYWORDS: readonly string[] = Object.freeze(["write", "create", "update", "delete", "set"]);

const readWords: ReadonlySet<string> = new Set(READ_KEYWORDS);
const writeWords: ReadonlySet<string> = new Set(WRITE_KEYWORDS);

export function isReadKeyword(word: string): boolean {
  return readWords.has(word);
}

export function isWriteKeyword(word: string): boolean {
  return writeWords.has(word);
}
