/**
 * How tool text becomes search terms, for documents and queries alike: words split on anything
 * that is not a letter or digit and at camelCase humps (`searchIssues`, `search_issues`,
 * `search-issues` all give "search" and "issues"), lower-cased, common English endings folded
 * ("issues" and "issue", "searching" and "search" meet), and words that carry no meaning dropped.
 */
export function tokenize(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** One word as a term, or `null` when it says nothing about what a tool does. */
export function toTerm(word: string): string | null {
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from has have i in into is it its me my of on or our please so that the their them then there these this to use used uses using via was we what when where which will with you your".split(
    " ",
  ),
);

/** A light suffix folding (no dictionary): enough for tool names and one-line descriptions. */
function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ing") && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith("es") && /(ch|sh|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
  return word;
}

function undouble(word: string): string {
  return /([^aeiouls])\1$/.test(word) ? word.slice(0, -1) : word;
}

/** The first line (or sentence) of a description, at most `max` characters, for a search result. */
export function oneLine(text: string, max = 160): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= max ? sentence : `${sentence.slice(0, max - 1)}…`;
}
