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

/**
 * Splits a tool name into lower-cased words: on `_ - . /`, whitespace and any other
 * punctuation, and at camelCase, PascalCase, acronym and letter/digit boundaries.
 *
 * `splitToolName("getHTTPStatus")` is `["get", "http", "status"]`.
 */
export function splitToolName(toolName: string): string[] {
  const spaced = toolName
    .replace(LOWER_OR_DIGIT_THEN_UPPER, "$1 $2")
    .replace(ACRONYM_THEN_WORD, "$1 $2")
    .replace(LETTER_THEN_DIGIT, "$1 $2")
    .replace(DIGIT_THEN_LETTER, "$1 $2");
  return spaced
    .split(SEPARATORS)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase());
}
