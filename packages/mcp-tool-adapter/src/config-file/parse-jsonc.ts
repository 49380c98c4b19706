/**
 * A strict JSON parser that also accepts what VS Code's mcp.json (JSONC) allows: `//` and
 * `/* *\/` comments and trailing commas. It exists because `JSON.parse` on Node 20 does not
 * always say where a syntax error is, and a config error must point at a line and column.
 */

/** A syntax error at `offset` (0-based index into the text). */
export class JsoncSyntaxError extends Error {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.name = "JsoncSyntaxError";
    this.offset = offset;
  }
}

export function parseJsonc(text: string): unknown {
  const parser = new JsoncParser(text);
  parser.skipTrivia();
  if (parser.atEnd()) throw new JsoncSyntaxError("the file is empty; expected a JSON object", 0);
  const value = parser.parseValue();
  parser.skipTrivia();
  if (!parser.atEnd()) throw parser.unexpected("end of input");
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class JsoncParser {
  private index = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.index >= this.text.length;
  }

  skipTrivia(): void {
    for (;;) {
      const char = this.text[this.index];
      if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\uFEFF") {
        this.index += 1;
      } else if (char === "/" && this.text[this.index + 1] === "/") {
        const end = this.text.indexOf("\n", this.index);
        this.index = end === -1 ? this.text.length : end + 1;
      } else if (char === "/" && this.text[this.index + 1] === "*") {
        const end = this.text.indexOf("*/", this.index + 2);
        if (end === -1) throw new JsoncSyntaxError("unterminated /* comment", this.index);
        this.index = end + 2;
      } else {
        return;
      }
    }
  }

  unexpected(expected: string): JsoncSyntaxError {
    if (this.atEnd()) return new JsoncSyntaxError(`unexpected end of input, expected ${expected}`, this.index);
    const found = JSON.stringify(this.text[this.index]);
    return new JsoncSyntaxError(`unexpected character ${found}, expected ${expected}`, this.index);
  }

  parseValue(): unknown {
    const char = this.text[this.index];
    if (char === "{") return this.parseObject();
    if (char === "[") return this.parseArray();
    if (char === '"') return this.parseString();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.parseNumber();
    for (const [word, value] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return value;
      }
    }
    throw this.unexpected("a JSON value");
  }

  private parseObject(): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.index += 1;
    this.skipTrivia();
    while (this.text[this.index] !== "}") {
      if (this.text[this.index] !== '"') throw this.unexpected('a double-quoted property name or "}"');
      const keyOffset = this.index;
      const key = this.parseString();
      if (Object.hasOwn(result, key)) throw new JsoncSyntaxError(`duplicate property name ${JSON.stringify(key)}`, keyOffset);
      this.skipTrivia();
      if (this.text[this.index] !== ":") throw this.unexpected('":"');
      this.index += 1;
      this.skipTrivia();
      // defineProperty, so a "__proto__" key is data and not a prototype change.
      Object.defineProperty(result, key, { value: this.parseValue(), enumerable: true, writable: true, configurable: true });
      this.skipTrivia();
      if (this.text[this.index] === ",") {
        this.index += 1;
        this.skipTrivia();
      } else if (this.text[this.index] !== "}") {
        throw this.unexpected('"," or "}"');
      }
    }
    this.index += 1;
    return result;
  }

  private parseArray(): unknown[] {
    const result: unknown[] = [];
    this.index += 1;
    this.skipTrivia();
    while (this.text[this.index] !== "]") {
      result.push(this.parseValue());
      this.skipTrivia();
      if (this.text[this.index] === ",") {
        this.index += 1;
        this.skipTrivia();
      } else if (this.text[this.index] !== "]") {
        throw this.unexpected('"," or "]"');
      }
    }
    this.index += 1;
    return result;
  }

  private parseString(): string {
    const start = this.index;
    this.index += 1;
    let result = "";
    for (;;) {
      const char = this.text[this.index];
      if (char === undefined) throw new JsoncSyntaxError("unterminated string", start);
      if (char === '"') break;
      if (char < " ") throw new JsoncSyntaxError("control character in string (escape it)", this.index);
      if (char === "\\") {
        const escape = this.text[this.index + 1] ?? "";
        if (escape === "u") {
          const hex = this.text.slice(this.index + 2, this.index + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new JsoncSyntaxError("invalid \\u escape", this.index);
          result += String.fromCharCode(Number.parseInt(hex, 16));
          this.index += 6;
          continue;
        }
        const decoded = ESCAPES[escape];
        if (decoded === undefined) throw new JsoncSyntaxError(`invalid escape "\\${escape}"`, this.index);
        result += decoded;
        this.index += 2;
        continue;
      }
      result += char;
      this.index += 1;
    }
    this.index += 1;
    return result;
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.index;
    const match = NUMBER.exec(this.text);
    if (!match) throw this.unexpected("a number");
    this.index += match[0].length;
    return Number(match[0]);
  }
}

/** 1-based line and column of a 0-based offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return { line, column };
}
