import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSchemaValidator, SchemaValidationError } from "../src/index.js";
import { compileLinearRegExp } from "../src/linear-regexp.js";

// Characters where ECMA-262 and RE2 disagree unless translated: line terminators, Unicode
// spaces, astral and lone surrogates, backspace, NUL, and the characters RE2 treats as syntax.
const ALPHABET = [
  "🇦",
  "a",
  "b",
  "A",
  "Z",
  "_",
  "0",
  "9",
  " ",
  "\t",
  "\n",
  "\r",
  "\v",
  "\f",
  "\u00a0",
  "\u2028",
  "\u2029",
  "\ufeff",
  "\u3000",
  "é",
  "α",
  "Ω",
  "😀",
  "\ud83d",
  "\ude00",
  "-",
  ".",
  "[",
  "]",
  ":",
  "\\",
  "/",
  "^",
  "$",
  "\b",
  "\0",
  "@",
];
const text = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((chars) => chars.join(""));

const PATTERNS = [
  "",
  "^$",
  "^a.b$",
  ".",
  "^.$",
  "^.+$",
  "^\\s+$",
  "\\S",
  "^[\\s\\S]$",
  "[^\\s]",
  "^[\\S-]+$",
  "[\\s.]",
  "^\\w+$",
  "\\W",
  "\\bab",
  "a\\B",
  "^\\d{2,3}$",
  "[\\b]",
  "\\cJ",
  "[\\cI]",
  "\\0",
  "\\u00e9",
  "\\uD83D\\uDE00",
  "^\\uD83D$",
  "^\\u{1F600}$",
  "[\\u{1F600}-\\u{1F64F}]",
  "^[^]$",
  "[]",
  "^[]*$",
  "[[]",
  "^[[:a]+$",
  "^[^^]+$",
  "\\p{L}",
  "\\P{L}",
  "^\\p{Lu}",
  "\\p{Letter}",
  "^\\p{Script=Greek}+$",
  "\\p{sc=Latin}",
  "\\p{General_Category=Decimal_Number}",
  "\\p{ASCII}",
  "^\\P{ASCII}",
  "[\\P{ASCII}a]",
  "\\p{Regional_Indicator}",
  "[^\\P{Regional_Indicator}]",
  "\\p{Any}",
  "(?<word>a+)b",
  "^(?:ab|ba)+$",
  "(a)(b)?",
  "a+?b",
  "(?<=a)b",
  "(?<!a)b",
  "(?<=(a))b",
  "^(?:a|b){2}$",
  "a{0}",
  "\\/",
  "\\.",
  "[\\-.]",
  "\\x41",
  "^[\\x41-\\x5A]+$",
  "^a|b$",
  "\\^",
  "\\$",
  "[\\^a]",
  "[\\]\\\\]",
  "\\t\\n\\v\\f\\r",
  "😀+",
  "^[😀é]$",
  "[^😀]",
  // Anchored at both ends, or only seemingly: whole-string matching must apply only to the first kind.
  "^a+$",
  "^(?:a|b)$",
  "^a|b$",
  "^a$|^b$",
  "^(a)|(b)$",
  "^\\$$",
  "^a\\$",
  "^[$]",
  "^a$$",
  "^\\bab\\b$",
  "^(?:a$)",
  "^(?<=^)a$",
  // Lookaheads right after a leading ^ (password rules, zod's hostname and emoji patterns), and ones that only look so.
  "^(?=.*a)(?=.*\\d)(?!.*\\s).{2,}$",
  "^(?=a)",
  "^(?!a)",
  "^(?=(a))[ab]+",
  "^(?=[)])",
  "^(?=\\))",
  "^(?=a)(?:b|a)",
  "^(?=a)(?=.*b$)(?!.*[😀]).*",
  "^(?=.{1,5}\\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\\.?$",
  "^(?=[\\s\\S]*[\\p{Extended_Pictographic}\\p{Regional_Indicator}\\u20E3])[\\p{Extended_Pictographic}\\p{Emoji_Component}]+$",
  "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$",
];

describe("a schema pattern on the linear-time engine", () => {
  it.each(PATTERNS)("agrees with ECMA-262 (u flag) on %j", (pattern) => {
    const native = new RegExp(pattern, "u");
    const linear = compileLinearRegExp(pattern);
    fc.assert(
      fc.property(text, (input) => {
        expect(linear.test(input), JSON.stringify(input)).toBe(native.test(input));
      }),
      { numRuns: 300 },
    );
  });

  it("gives \\s, \\S and . their ECMA-262 meaning for every code point of the BMP and some beyond", () => {
    const shorthands = ["\\s", "\\S", ".", "[\\s]", "[\\S]", "[^\\s]"].map((p) => ({
      native: new RegExp(`^${p}$`, "u"),
      linear: compileLinearRegExp(`^${p}$`),
    }));
    const mismatches: string[] = [];
    for (const codePoint of [...Array.from({ length: 0x10000 }, (_, i) => i), 0x10000, 0x1f600, 0x10ffff]) {
      const char = String.fromCodePoint(codePoint);
      for (const { native, linear } of shorthands) {
        if (native.test(char) !== linear.test(char)) mismatches.push(`${native.source} U+${codePoint.toString(16)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("matches the whole string only when ^ and $ anchor all of the pattern", () => {
    const inputs = ["a", "axx", "xxb", "xax", "ab", "$", "a$"];
    for (const pattern of ["^a|b$", "^a$|^b$", "^(a)|(b)$", "^a\\$", "^\\$$", "^a+$"]) {
      const native = new RegExp(pattern, "u");
      const linear = compileLinearRegExp(pattern);
      expect(
        inputs.map((input) => linear.test(input)),
        pattern,
      ).toEqual(inputs.map((input) => native.test(input)));
    }
  });

  it("checks lookaheads after a leading ^ as patterns of their own", () => {
    const password = compileLinearRegExp("^(?=.*[A-Z])(?=.*\\d)(?!.*\\s).{8,}$");
    expect(["Secret123", "secret123", "SecretABC", "Secret 123", "Se1"].map((input) => password.test(input))).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
    const hostname = compileLinearRegExp(
      "^(?=.{1,253}\\.?$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[-0-9a-zA-Z]{0,61}[0-9a-zA-Z])?)*\\.?$",
    );
    expect([hostname.test("example.com"), hostname.test(`${"a.".repeat(127)}com`), hostname.test("-bad.com")]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("keys ajv's sharing of compiled patterns by the pattern itself", () => {
    expect(String(compileLinearRegExp("a"))).not.toBe(String(compileLinearRegExp("b")));
  });
});

describe("patterns the linear-time engine cannot run", () => {
  const validator = createSchemaValidator();
  const refusal = (pattern: string): SchemaValidationError => {
    try {
      validator.compile({ type: "string", pattern });
    } catch (error) {
      if (SchemaValidationError.isInstance(error)) return error;
      throw error;
    }
    throw new Error(`pattern ${pattern} compiled`);
  };

  it.each([
    ["a(?=b)", "lookahead"],
    ["^(?=a)b|c", "lookahead"],
    ["^(?:(?!admin).)*$", "lookahead"],
    [
      "^P(?:(\\d+W)|(?!.*W)(?=\\d|T\\d)(\\d+Y)?(\\d+M)?(\\d+D)?(T(?=\\d)(\\d+H)?(\\d+M)?(\\d+([.,]\\d+)?S)?)?)$",
      "lookahead",
    ],
    ["^(?=a{600})a{600}", "steps, over 1000"],
    ["(a)\\1", "backreferences"],
    ["(?<q>a)\\k<q>", "backreferences"],
    ["^.{1,5000}$", "compiles to about 5003 steps, over 1000"],
    ["^.{0,1000}$", "compiles to 2002 steps, over 1000"],
    ["[ab]{1000}".repeat(20), "compiles to about 20020 steps, over 1000"],
    ["(?:(?:a{1,40}){1,40})", "invalid repeat count"],
    ["\\p{scx=Greek}", "Unicode property"],
  ])("refuses %j as SCHEMA_INVALID naming the pattern and the reason", (pattern, reason) => {
    const error = refusal(pattern);
    expect(error.code).toBe("SCHEMA_INVALID");
    expect(error.message).toContain(`pattern ${JSON.stringify(pattern)} cannot be used`);
    expect(error.message).toContain(reason);
    expect(error.message).toContain("linear-time engine");
  });

  it("refuses them in patternProperties and propertyNames too", () => {
    expect(() => validator.compile({ patternProperties: { "(?=a)": {} } })).toThrow(
      /pattern "\(\?=a\)" cannot be used/,
    );
    expect(() => validator.compile({ propertyNames: { pattern: "(?=a)" } })).toThrow(
      /pattern "\(\?=a\)" cannot be used/,
    );
  });

  it("still reports a malformed pattern with the ECMA-262 parser's own message", () => {
    expect(refusal("[").message).toContain("Invalid regular expression: /[/u: Unterminated character class");
    expect(refusal("a{,5}").message).toContain("Invalid regular expression");
  });
});
