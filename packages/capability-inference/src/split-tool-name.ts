/** The character classes the word boundaries are made of, as regex class contents. */
interface CharacterClasses {
  lower: string;
  upper: string;
  letter: string;
  /** Combining marks: part of the letter before them ("e" + U+0301 is one letter). */
  mark: string;
  digit: string;
}

// Unicode-aware so names in any script split the same way ASCII names do.
const UNICODE: CharacterClasses = {
  lower: "\\p{Ll}",
  upper: "\\p{Lu}",
  letter: "\\p{L}",
  mark: "\\p{M}",
  digit: "\\p{N}",
};
// The same classes for a name of printable ASCII only (most tool names). Why both: V8 builds the
// Unicode property classes when such a pattern is first compiled, about 1 ms of CPU on Node 24
// for one server's listing, on a CLI `call`'s path; these small classes cost next to nothing.
const ASCII: CharacterClasses = { lower: "a-z", upper: "A-Z", letter: "A-Za-z", mark: "", digit: "0-9" };
const ASCII_ONLY = /^[ -~]*$/;

/**
 * Word boundaries inside a run of letters and digits, each once: what comes before the boundary
 * and what comes after it (the first character of the next word, and for an acronym the one after).
 */
const BOUNDARIES: readonly ((c: CharacterClasses) => readonly [before: string, after: string])[] = [
  // camelCase, PascalCase, "v2Beta".
  (c) => [`[${c.lower}${c.digit}]`, `[${c.upper}]`],
  // The last capital of an acronym starts the next word: "HTTPStatus" -> "HTTP Status".
  (c) => [`[${c.upper}]`, `[${c.upper}][${c.lower}]`],
  (c) => [`[${c.letter}${c.mark}]`, `[${c.digit}]`],
  (c) => [`[${c.digit}]`, `[${c.letter}]`],
];

interface WordPatterns {
  boundaries: readonly RegExp[];
  /**
   * `_ - . /` and spaces are the documented separators; any other punctuation (":", "@", "+")
   * separates words too, so "repo:list" still reads as "repo list".
   */
  separators: RegExp;
}

function wordPatterns(c: CharacterClasses, unicode: boolean): WordPatterns {
  const flags = unicode ? "u" : "";
  return {
    boundaries: BOUNDARIES.map((boundary) => {
      const [before, after] = boundary(c);
      return new RegExp(`(${before})(${after})`, `g${flags}`);
    }),
    separators: new RegExp(`[^${c.letter}${c.mark}${c.digit}]+`, flags),
  };
}

const ASCII_PATTERNS = wordPatterns(ASCII, false);
// Made on the first name that is not printable ASCII: an ASCII-only run never builds them.
let unicodePatterns: WordPatterns | undefined;

/**
 * Splits a tool name into lower-cased words: on `_ - . /`, whitespace and any other
 * punctuation, and at camelCase, PascalCase, acronym and letter/digit boundaries.
 *
 * `splitToolName("getHTTPStatus")` is `["get", "http", "status"]`.
 */
export function splitToolName(toolName: string): string[] {
  const patterns = ASCII_ONLY.test(toolName) ? ASCII_PATTERNS : (unicodePatterns ??= wordPatterns(UNICODE, true));
  let spaced = toolName;
  for (const boundary of patterns.boundaries) spaced = spaced.replace(boundary, "$1 $2");
  return spaced
    .split(patterns.separators)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}
