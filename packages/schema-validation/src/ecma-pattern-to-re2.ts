/*
 * JSON Schema patterns are ECMA-262 regular expressions (ajv runs them with the "u" flag); the
 * linear-time engine speaks RE2 syntax. This rewrites one into the other, keeping ECMA-262
 * meaning where the two differ (".", "\s", "\u", "\c", "[^]", named groups ...), and reports the
 * constructs RE2 cannot run in linear time. The input must already be a valid "u"-flag pattern
 * (the caller compiles it natively first), which rules out the loose Annex B forms.
 */

/** A construct with no linear-time equivalent; `reason` says which, for the schema's author. */
export class UnsupportedPatternError extends Error {
  override readonly name = "UnsupportedPatternError";
}

export interface Re2Pattern {
  source: string;
  /** RE2JS runs lookbehinds only when asked to (it is slower for them). */
  hasLookbehind: boolean;
  /**
   * The pattern between a leading "^" and a trailing "$" when they anchor all of it (no top-level
   * "|"): RE2JS matches a whole string several times faster than it searches for an anchored one.
   */
  wholeStringSource?: string;
  /**
   * An upper estimate of RE2's program size, known before compiling: compiling takes time in
   * proportion to it, and a short pattern can ask for a huge one (twenty "[ab]{1000}" make 20,000).
   */
  estimatedSize: number;
}

const ALL_CODE_POINTS = "\\x00-\\x{10FFFF}";
// ECMA-262 WhiteSpace and LineTerminator, what "\s" means there; RE2's "\s" is ASCII only.
const WHITESPACE =
  "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
// The complement written out, so that it also works inside a character class.
const NOT_WHITESPACE =
  "\\x00-\\x08\\x0E-\\x1F\\x21-\\x9F\\x{A1}-\\x{167F}\\x{1681}-\\x{1FFF}\\x{200B}-\\x{2027}\\x{202A}-\\x{202E}" +
  "\\x{2030}-\\x{205E}\\x{2060}-\\x{2FFF}\\x{3001}-\\x{FEFE}\\x{FF00}-\\x{10FFFF}";
// Without the "s" flag, "." matches anything but a line terminator; RE2's excludes only "\n".
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

// ECMA-262 accepts the long General_Category names; RE2 only the short ones.
const GENERAL_CATEGORIES: Readonly<Record<string, string>> = {
  Cased_Letter: "LC",
  Close_Punctuation: "Pe",
  Connector_Punctuation: "Pc",
  Control: "Cc",
  cntrl: "Cc",
  Currency_Symbol: "Sc",
  Dash_Punctuation: "Pd",
  Decimal_Number: "Nd",
  digit: "Nd",
  Enclosing_Mark: "Me",
  Final_Punctuation: "Pf",
  Format: "Cf",
  Initial_Punctuation: "Pi",
  Letter: "L",
  Letter_Number: "Nl",
  Line_Separator: "Zl",
  Lowercase_Letter: "Ll",
  Mark: "M",
  Combining_Mark: "M",
  Math_Symbol: "Sm",
  Modifier_Letter: "Lm",
  Modifier_Symbol: "Sk",
  Nonspacing_Mark: "Mn",
  Number: "N",
  Open_Punctuation: "Ps",
  Other: "C",
  Other_Letter: "Lo",
  Other_Number: "No",
  Other_Punctuation: "Po",
  Other_Symbol: "So",
  Paragraph_Separator: "Zp",
  Private_Use: "Co",
  Punctuation: "P",
  punct: "P",
  Separator: "Z",
  Space_Separator: "Zs",
  Spacing_Mark: "Mc",
  Surrogate: "Cs",
  Symbol: "S",
  Titlecase_Letter: "Lt",
  Unassigned: "Cn",
  Uppercase_Letter: "Lu",
};

// Binary properties ECMA-262 has and RE2 lacks, each one range of code points.
const RANGE_PROPERTIES: Readonly<Record<string, readonly [number, number]>> = {
  ASCII: [0x00, 0x7f],
  Regional_Indicator: [0x1f1e6, 0x1f1ff],
};

/** @throws UnsupportedPatternError for lookahead, backreferences and inline modifiers */
export function ecmaPatternToRe2(pattern: string): Re2Pattern {
  return new Translation(pattern).run();
}

class Translation {
  readonly #pattern: string;
  #at = 0;
  #out = "";
  #inClass = false;
  #hasLookbehind = false;
  #groupDepth = 0;
  #topLevelAlternation = false;
  #endsWithEndAnchor = false;
  // For `estimatedSize`: the running size of each open group, and of the atom a quantifier would repeat.
  readonly #groupSizes: number[] = [0];
  #lastAtomSize = 0;

  constructor(pattern: string) {
    this.#pattern = pattern;
  }

  run(): Re2Pattern {
    const pattern = this.#pattern;
    while (this.#at < pattern.length) {
      const char = pattern[this.#at] as string;
      this.#endsWithEndAnchor = char === "$" && !this.#inClass;
      if (char === "\\") this.#escape();
      else if (this.#inClass) this.#classMember(char);
      else if (char === ".") {
        this.#atom();
        this.#emit(DOT, 1);
      } else if (char === "[") this.#openClass();
      else if (char === "(") this.#openGroup();
      else this.#plain(char);
    }
    const source = this.#out;
    const wholeString =
      source.startsWith("^") && this.#endsWithEndAnchor && !this.#topLevelAlternation && !this.#hasLookbehind;
    const estimatedSize = this.#groupSizes[0] as number;
    return {
      source,
      hasLookbehind: this.#hasLookbehind,
      estimatedSize,
      ...(wholeString ? { wholeStringSource: source.slice(1, -1) } : {}),
    };
  }

  #plain(char: string): void {
    if (char === "{") return this.#counted();
    if (char === ")") {
      this.#groupDepth -= 1;
      const inner = this.#groupSizes.pop() as number;
      this.#grow(inner);
      this.#lastAtomSize = inner;
    } else if (char === "|") {
      if (this.#groupDepth === 0) this.#topLevelAlternation = true;
      this.#grow(1);
      this.#lastAtomSize = 0;
    } else if (char === "*" || char === "+" || char === "?") {
      this.#grow(1);
    } else {
      this.#atom();
    }
    this.#emit(char, 1);
  }

  /** A "{n}", "{n,}" or "{n,m}" quantifier (with the "u" flag a "{" outside a class is nothing else). */
  #counted(): void {
    const quantifier = /\{(\d+)(,(\d*))?\}/y;
    quantifier.lastIndex = this.#at;
    const [text = "", min = "0", comma, max] = quantifier.exec(this.#pattern) ?? [];
    const count = comma === undefined ? Number(min) : max === "" || max === undefined ? Number(min) + 1 : Number(max);
    this.#grow(this.#lastAtomSize * Math.max(count - 1, 0) + 1);
    this.#lastAtomSize *= Math.max(count, 1);
    this.#emit(text, text.length);
  }

  #grow(size: number): void {
    const last = this.#groupSizes.length - 1;
    this.#groupSizes[last] = (this.#groupSizes[last] as number) + size;
  }

  #atom(): void {
    this.#grow(1);
    this.#lastAtomSize = 1;
  }

  #emit(text: string, consumed: number): void {
    this.#out += text;
    this.#at += consumed;
  }

  #startsWith(text: string): boolean {
    return this.#pattern.startsWith(text, this.#at);
  }

  #openClass(): void {
    this.#atom();
    // ECMA-262's empty classes; RE2 would read the "]" as a member.
    if (this.#startsWith("[]")) return this.#emit(`[^${ALL_CODE_POINTS}]`, 2);
    if (this.#startsWith("[^]")) return this.#emit(`[${ALL_CODE_POINTS}]`, 3);
    this.#inClass = true;
    if (this.#startsWith("[^")) this.#emit("[^", 2);
    else this.#emit("[", 1);
  }

  #classMember(char: string): void {
    if (char === "]") this.#inClass = false;
    // A literal "[" in ECMA-262; RE2 would start a POSIX class such as "[:alpha:]" with it.
    this.#emit(char === "[" ? "\\[" : char, 1);
  }

  #openGroup(): void {
    this.#groupDepth += 1;
    this.#groupSizes.push(0);
    // Every group becomes non-capturing: only whether the pattern matches counts, and RE2JS
    // refuses capturing groups inside lookbehinds.
    if (!this.#startsWith("(?")) return this.#emit("(?:", 1);
    if (this.#startsWith("(?:")) return this.#emit("(?:", 3);
    if (this.#startsWith("(?=") || this.#startsWith("(?!"))
      throw new UnsupportedPatternError("lookahead ((?=...) or (?!...))");
    if (this.#startsWith("(?<=") || this.#startsWith("(?<!")) {
      this.#hasLookbehind = true;
      return this.#emit(this.#pattern.slice(this.#at, this.#at + 4), 4);
    }
    if (this.#startsWith("(?<")) {
      const end = this.#pattern.indexOf(">", this.#at);
      return this.#emit("(?:", end + 1 - this.#at);
    }
    throw new UnsupportedPatternError("inline modifiers such as (?i:...)");
  }

  #escape(): void {
    if (!this.#inClass) this.#atom();
    const pattern = this.#pattern;
    const next = pattern[this.#at + 1] ?? "";
    switch (next) {
      case "s":
        return this.#emit(this.#inClass ? WHITESPACE : `[${WHITESPACE}]`, 2);
      case "S":
        return this.#emit(this.#inClass ? NOT_WHITESPACE : `[${NOT_WHITESPACE}]`, 2);
      case "b":
        // Inside a class "\b" is the backspace character.
        return this.#emit(this.#inClass ? "\\x08" : "\\b", 2);
      case "0":
        return this.#emit("\\x00", 2);
      case "c":
        return this.#emit(codePointEscape(pattern.charCodeAt(this.#at + 2) % 32), 3);
      case "u":
        return this.#unicodeEscape();
      case "p":
      case "P":
        return this.#propertyEscape(next);
      case "k":
        throw new UnsupportedPatternError("backreferences (\\k<name>)");
      default:
        if (next >= "1" && next <= "9") throw new UnsupportedPatternError(`backreferences (\\${next})`);
        // \d \D \w \W \B \t \n \v \f \r \xHH and escaped syntax characters mean the same in RE2.
        return this.#emit(`\\${next}`, 2);
    }
  }

  #unicodeEscape(): void {
    const pattern = this.#pattern;
    if (pattern[this.#at + 2] === "{") {
      const end = pattern.indexOf("}", this.#at);
      return this.#emit(`\\x{${pattern.slice(this.#at + 3, end)}}`, end + 1 - this.#at);
    }
    const unit = Number.parseInt(pattern.slice(this.#at + 2, this.#at + 6), 16);
    // With the "u" flag an escaped surrogate pair is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && pattern.startsWith("\\u", this.#at + 6)) {
      const low = Number.parseInt(pattern.slice(this.#at + 8, this.#at + 12), 16);
      if (low >= 0xdc00 && low <= 0xdfff)
        return this.#emit(codePointEscape(0x10000 + (unit - 0xd800) * 0x400 + (low - 0xdc00)), 12);
    }
    this.#emit(codePointEscape(unit), 6);
  }

  #propertyEscape(letter: "p" | "P"): void {
    const end = this.#pattern.indexOf("}", this.#at);
    const property = this.#pattern.slice(this.#at + 3, end);
    const consumed = end + 1 - this.#at;
    const separator = property.indexOf("=");
    const key = separator === -1 ? undefined : property.slice(0, separator);
    const name = property.slice(separator + 1);
    // Script_Extensions differs from Script; RE2 knows only the latter. (General_Category= and Script= drop their key.)
    if (key === "Script_Extensions" || key === "scx")
      throw new UnsupportedPatternError(`the Unicode property ${property}`);
    const range = key === undefined ? RANGE_PROPERTIES[name] : undefined;
    if (range !== undefined) {
      const [first, last] = range;
      const below = first > 0 ? `\\x00-${codePointEscape(first - 1)}` : "";
      const members =
        letter === "p"
          ? `${codePointEscape(first)}-${codePointEscape(last)}`
          : `${below}${codePointEscape(last + 1)}-\\x{10FFFF}`;
      return this.#emit(this.#inClass ? members : `[${members}]`, consumed);
    }
    this.#emit(`\\${letter}{${GENERAL_CATEGORIES[name] ?? name}}`, consumed);
  }
}

function codePointEscape(codePoint: number): string {
  return `\\x{${codePoint.toString(16).toUpperCase()}}`;
}
