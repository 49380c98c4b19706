/*
 * RE2 has no lookahead, but the commonest use of it needs none: lookaheads right after a leading
 * "^", as in "^(?=.*[A-Z])(?=.*\d).{8,}$" (password rules) or zod's hostname and emoji patterns.
 * With no top-level "|", "^(?=A)(?!B)C" matches exactly when "^(?:A)" matches, "^(?:B)" does not,
 * and "^(?:C)" does, each of which RE2 can run.
 */

export interface LeadingLookaheads {
  lookaheads: readonly { negated: boolean; pattern: string }[];
  rest: string;
}

/** The parts of a valid "u"-flag pattern that starts with "^(?=" or "^(?!", or undefined when it does not or has a top-level "|". */
export function splitLeadingLookaheads(pattern: string): LeadingLookaheads | undefined {
  if (!pattern.startsWith("^(?=") && !pattern.startsWith("^(?!")) return undefined;
  if (hasTopLevelAlternation(pattern)) return undefined;
  const lookaheads: { negated: boolean; pattern: string }[] = [];
  let at = 1;
  while (pattern.startsWith("(?=", at) || pattern.startsWith("(?!", at)) {
    const end = closingParenthesis(pattern, at);
    lookaheads.push({ negated: pattern[at + 2] === "!", pattern: `^(?:${pattern.slice(at + 3, end)})` });
    // With the "u" flag a lookahead cannot be quantified, so the next part starts right after it.
    at = end + 1;
  }
  return { lookaheads, rest: `^(?:${pattern.slice(at)})` };
}

/** Walks the pattern's structure, calling `visit` with each character outside classes and escapes and its group depth. */
function walk(pattern: string, visit: (char: string, index: number, depth: number) => boolean): void {
  let depth = 0;
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] as string;
    if (char === "\\") {
      index += 1;
      continue;
    }
    if (char === "[") {
      index += 1;
      while (index < pattern.length && pattern[index] !== "]") index += pattern[index] === "\\" ? 2 : 1;
      continue;
    }
    if (char === ")") depth -= 1;
    if (visit(char, index, depth)) return;
    if (char === "(") depth += 1;
  }
}

function hasTopLevelAlternation(pattern: string): boolean {
  let found = false;
  walk(pattern, (char, _index, depth) => (found = char === "|" && depth === 0));
  return found;
}

function closingParenthesis(pattern: string, open: number): number {
  let close = pattern.length;
  walk(pattern, (char, index, depth) => {
    if (index > open && char === ")" && depth === 0) close = index;
    return close !== pattern.length;
  });
  return close;
}
