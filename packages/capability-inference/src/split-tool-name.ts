// Word boundaries inside a run of letters and digits. Unicode-aware so names in any
// script split the same way ASCII names do.
const LOWER_OR_DIGIT_THEN_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu;
// The last capital of an acronym starts the next word: "HTTPStatus" -> "HTTP Status".
const ACRONYM_THEN_WORD = /(\p{Lu})(\p{Lu}\p{Ll})/gu;
const LETTER_THEN_DIGIT = /([\p{L}\p{M}])(\p{N})/gu;
const DIGIT_THEN_LETTER = /(\p{N})(\p{L})/gu;
// `_ - . /` and spaces are the documented separators; any other punctuation
// (":", "@", "+") separates words too, so "repo:list" still reads as "repo list".
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/u;

// The same boundaries for a name of printable ASCII only (most tool names), where \p{Ll} is
// a-z, \p{Lu} A-Z, \p{L} A-Za-z, \p{N} 0-9 and \p{M} nothing. Why twice: V8 builds the Unicode
// property classes above when a pattern first runs, about 1 ms of CPU on Node 24 for one server's
// listing, on a CLI `call`'s path; these small classes cost next to nothing.
const ASCII_ONLY = /^[ -~]*$/;
const ASCII_LOWER_OR_DIGIT_THEN_UPPER = /([a-z0-9])([A-Z])/g;
const ASCII_ACRONYM_THEN_WORD = /([A-Z])([A-Z][a-z])/g;
const ASCII_LETTER_THEN_DIGIT = /([A-Za-z])([0-9])/g;
const ASCII_DIGIT_THEN_LETTER = /([0-9])([A-Za-z])/g;
const ASCII_SEPARATORS = /[^A-Za-z0-9]+/;

const UNICODE_PATTERNS = [LOWER_OR_DIGIT_THEN_UPPER, ACRONYM_THEN_WORD, LETTER_THEN_DIGIT, DIGIT_THEN_LETTER] as const;
const ASCII_PATTERNS = [
  ASCII_LOWER_OR_DIGIT_THEN_UPPER,
  ASCII_ACRONYM_THEN_WORD,
  ASCII_LETTER_THEN_DIGIT,
  ASCII_DIGIT_THEN_LETTER,
] as const;

/**
 * Splits a tool name into lower-cased words: on `_ - . /`, whitespace and any other
 * punctuation, and at camelCase, PascalCase, acronym and letter/digit boundaries.
 *
 * `splitToolName("getHTTPStatus")` is `["get", "http", "status"]`.
 */
export function splitToolName(toolName: string): string[] {
  const ascii = ASCII_ONLY.test(toolName);
  const [lowerOrDigitThenUpper, acronymThenWord, letterThenDigit, digitThenLetter] = ascii
    ? ASCII_PATTERNS
    : UNICODE_PATTERNS;
  const spaced = toolName
    .replace(lowerOrDigitThenUpper, "$1 $2")
    .replace(acronymThenWord, "$1 $2")
    .replace(letterThenDigit, "$1 $2")
    .replace(digitThenLetter, "$1 $2");
  return spaced
    .split(ascii ? ASCII_SEPARATORS : SEPARATORS)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}
