import type { Options } from "ajv";
import { RE2JS } from "re2js";
import { describeError } from "./describe-error.js";
import { ecmaPatternToRe2, UnsupportedPatternError } from "./ecma-pattern-to-re2.js";

/** What ajv needs of a compiled pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * Compiles a schema's `pattern` (or a `patternProperties` key) for a matcher whose time is linear
 * in the input: a schema comes from the server, and a backtracking engine lets a pattern such as
 * `^(a+)+$` stall the host's event loop for minutes on one short argument.
 *
 * The pattern is first compiled natively with the "u" flag, which ajv uses too, so a malformed one
 * fails with the same SyntaxError as before (compiling runs nothing). Valid patterns that RE2
 * cannot run (lookahead, backreferences, repetition counts above 1000) are refused rather than run
 * natively: no test can prove such a pattern safe for every input.
 * @throws SyntaxError for a malformed pattern, Error naming the pattern for an unsupported one
 */
export function compileLinearRegExp(pattern: string): LinearRegExp {
  new RegExp(pattern, "u");
  let test: (text: string) => boolean;
  try {
    const { source, hasLookbehind, wholeStringSource } = ecmaPatternToRe2(pattern);
    if (wholeStringSource === undefined) {
      const matcher = RE2JS.compile(source, hasLookbehind ? RE2JS.LOOKBEHINDS : 0);
      test = (text) => matcher.test(text);
    } else {
      const matcher = RE2JS.compile(wholeStringSource);
      test = (text) => matcher.testExact(text);
    }
  } catch (error) {
    const reason = error instanceof UnsupportedPatternError ? `it uses ${error.message}` : describeError(error).replace(/^error parsing regexp: /, "");
    throw new Error(
      `pattern ${JSON.stringify(pattern)} cannot be used: ${reason}. Patterns run on a linear-time engine (RE2), so that no ` +
        "schema can stall validation; it has no lookahead, no backreferences and no repetition count above 1000",
      { cause: error },
    );
  }
  // ajv shares one compiled pattern between the places a schema uses it, keyed by this string.
  const key = `/${pattern}/u`;
  return { test, toString: () => key };
}

type RegExpEngine = NonNullable<NonNullable<Options["code"]>["regExp"]>;

/** `compileLinearRegExp` as ajv's `code.regExp` option. ajv passes the "u" flag, always set here. */
export const linearRegExpEngine: RegExpEngine = Object.assign((pattern: string) => compileLinearRegExp(pattern), {
  // Only used by ajv's standalone code generation, which this package does not use.
  code: 'require("@mcp-tool-adapter/schema-validation").compileLinearRegExp',
});
