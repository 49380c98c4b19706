const MAX_DISPLAY_CHARACTERS = 64;
// Characters that would hide, reorder or break a name when printed in a message or a log.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}]/u;

function escapeCharacter(character: string): string {
  if (character === " ") return character;
  if (character === '"' || character === "\\") return `\\${character}`;
  if (UNPRINTABLE.test(character)) return `\\u{${codePointHex(character)}}`;
  return character;
}

export function codePointHex(character: string): string {
  return (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
}

/**
 * A name made safe to print: quoted, invisible and control characters escaped as
 * `\u{XXXX}`, and cut to 64 characters so a hostile name cannot flood a message.
 */
export function displayName(name: unknown): string {
  if (typeof name !== "string") return `(${name === null ? "null" : typeof name})`;
  const characters = Array.from(name);
  const shown = characters.slice(0, MAX_DISPLAY_CHARACTERS).map(escapeCharacter).join("");
  const cut = characters.length > MAX_DISPLAY_CHARACTERS ? `…" (${characters.length} characters)` : '"';
  return `"${shown}${cut}`;
}
