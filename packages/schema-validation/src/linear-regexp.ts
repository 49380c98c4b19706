import type { Options } from "ajv";
import { loadRe2 } from "#engine-modules";
import { describeError } from "./describe-error.js";
import { ecmaPatternToRe2, UnsupportedPatternError } from "./ecma-pattern-to-re2.js";
import { splitLeadingLookaheads } from "./leading-lookaheads.js";

/** What ajv needs of a compiled pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * The largest RE2 program (in instructions) a pattern may compile to. RE2's time is linear in the
 * input but also in the program: when its DFA gives up, each character costs up to one step per
 * instruction. At this size the worst patterns found (`[ab]{995}$`, `(?:a|b){0,495}c`) take about
 * 0.4 s on a 50,000-character near-miss (2 cores, heavily loaded), at half of it 35 ms; ordinary
 * patterns are far smaller (`^[a-z0-9-]{1,255}$` is 511, an e-mail pattern about 30).
 */
export const MAX_PATTERN_PROGRAM_SIZE = 1000;

/**
 * Compiles a schema's `pattern` (or a `patternProperties` key) for a matcher whose time is linear
 * in the input: a schema comes from the server, and a backtracking engine lets a pattern such as
 * `^(a+)+$` stall the host's event loop for minutes on one short argument.
 *
 * The pattern is first compiled natively with the "u" flag, which ajv uses too, so a malformed one
 * fails with the same SyntaxError as before (compiling runs nothing). Lookaheads right after a
 * leading "^" become separate patterns (see leading-lookaheads.ts). Valid patterns that RE2 still
 * cannot run (other lookaheads, backreferences) or that compile to more than
 * MAX_PATTERN_PROGRAM_SIZE instructions in all are refused rather than run natively: no test can
 * prove such a pattern safe for every input.
 * @throws SyntaxError for a malformed pattern, Error naming the pattern for an unsupported one
 */
export function compileLinearRegExp(pattern: string): LinearRegExp {
  new RegExp(pattern, "u");
  let test: (text: string) => boolean;
  try {
    test = compileParts(pattern, { remaining: MAX_PATTERN_PROGRAM_SIZE });
  } catch (error) {
    const reason =
      error instanceof UnsupportedPatternError
        ? `it uses ${error.message}`
        : describeError(error).replace(/^error parsing regexp: /, "");
    throw new Error(
      `pattern ${JSON.stringify(pattern)} cannot be used: ${reason}. Patterns run on a linear-time engine (RE2), so that no ` +
        "schema can stall validation; it has no backreferences and no lookahead except right after a leading ^, and a pattern " +
        `may compile to at most ${MAX_PATTERN_PROGRAM_SIZE} steps`,
      { cause: error },
    );
  }
  // ajv shares one compiled pattern between the places a schema uses it, keyed by this string.
  const key = `/${pattern}/u`;
  return { test, toString: () => key };
}

/** What is left of MAX_PATTERN_PROGRAM_SIZE for the parts of one pattern. */
interface SizeBudget {
  remaining: number;
}

function compileParts(pattern: string, budget: SizeBudget): (text: string) => boolean {
  const split = splitLeadingLookaheads(pattern);
  if (split === undefined) return compileRe2(pattern, budget);
  const lookaheads = split.lookaheads.map(({ negated, pattern: part }) => ({
    negated,
    test: compileParts(part, budget),
  }));
  const rest = compileParts(split.rest, budget);
  return (text) => lookaheads.every(({ negated, test }) => test(text) !== negated) && rest(text);
}

function compileRe2(pattern: string, budget: SizeBudget): (text: string) => boolean {
  const { source, hasLookbehind, wholeStringSource, estimatedSize } = ecmaPatternToRe2(pattern);
  const used = MAX_PATTERN_PROGRAM_SIZE - budget.remaining;
  // The estimate is within a factor of two of the real size; checking it first keeps a pattern
  // asking for millions of instructions from taking seconds to compile.
  if (estimatedSize > 2 * budget.remaining)
    throw new UnsupportedPatternError(tooLarge(`about ${used + estimatedSize}`));
  const RE2JS = loadRe2();
  const matcher = RE2JS.compile(wholeStringSource ?? source, hasLookbehind ? RE2JS.LOOKBEHINDS : 0);
  const size = matcher.programSize();
  if (size > budget.remaining) throw new UnsupportedPatternError(tooLarge(String(used + size)));
  budget.remaining -= size;
  // Matching the whole string is several times faster than searching for an anchored match.
  return wholeStringSource === undefined ? (text) => matcher.test(text) : (text) => matcher.testExact(text);
}

function tooLarge(size: string): string {
  return `so many repetitions that it compiles to ${size} steps, over ${MAX_PATTERN_PROGRAM_SIZE} (for long strings use maxLength rather than a counted repetition)`;
}

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

/** `compileLinearRegExp` as ajv's `code.regExp` option. ajv passes the "u" flag, always set here. */
export const linearRegExpEngine: RegExpEngine = Object.assign((pattern: string) => compileLinearRegExp(pattern), {
  // Only used by ajv's standalone code generation, which this package does not use.
  code: 'require("@mcp-tool-adapter/schema-validation").compileLinearRegExp',
});
