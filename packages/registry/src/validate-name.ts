import { codePointHex } from "./display-name.js";

export const MAX_NAME_CHARACTERS = 128;

export type NameKind = "namespace" | "tool";

interface CharacterRule {
  pattern: RegExp;
  reason: string;
}

// Checked in order; the first that matches is reported with the offending code point.
const CHARACTER_RULES: readonly CharacterRule[] = [
  { pattern: /\p{Cc}/u, reason: "must not contain control characters" },
  {
    // Zero-width, bidi-override and unpaired surrogate characters make two different
    // names print the same, so one could pass for (shadow) another in a listing.
    pattern: /[\p{Cf}\p{Cs}]/u,
    reason: "must not contain invisible formatting characters or unpaired surrogates",
  },
  { pattern: /[\s\p{Z}]/u, reason: "must not contain whitespace" },
];

/**
 * Why `name` cannot be used as a namespace or a tool's local name, or `undefined` when it
 * can. Names are 1-128 Unicode characters in NFC form without `/`, `..` (or a lone `.`),
 * whitespace, control or invisible formatting characters. Letters and digits of any
 * script are allowed.
 */
export function validateToolName(kind: NameKind, name: string): string | undefined {
  if (typeof name !== "string") return `a ${kind} name must be a string`;
  if (name.length === 0) return `a ${kind} name must not be empty`;
  const characters = Array.from(name);
  if (characters.length > MAX_NAME_CHARACTERS) {
    return `a ${kind} name must be at most ${MAX_NAME_CHARACTERS} characters (this one has ${characters.length})`;
  }
  if (name.includes("/")) {
    return `a ${kind} name must not contain "/" (it separates the namespace from the tool name)`;
  }
  if (name === "." || name.includes("..")) return `a ${kind} name must not be "." or contain ".."`;
  for (const rule of CHARACTER_RULES) {
    const found = rule.pattern.exec(name);
    if (found) return `a ${kind} name ${rule.reason} (found U+${codePointHex(found[0])})`;
  }
  // Two spellings of "é" would otherwise be two different names that print the same.
  if (name.normalize("NFC") !== name) return `a ${kind} name must be in Unicode NFC form`;
  return undefined;
}
