import { createRequire } from "node:module";
import type * as JsoncParser from "jsonc-parser";
import type { ParseErrorCode } from "jsonc-parser";
import { parsePlainJson } from "./parse-plain-json.js";

/**
 * JSON as VS Code's mcp.json allows it (JSONC: `//` and `/* *\/` comments, trailing commas),
 * read with VS Code's own `jsonc-parser`. Values are built here from its visitor rather than
 * with its `parse`, for two rules a config file needs: a duplicate key is an error (not a silent
 * overwrite), and a `__proto__` key is plain data (not a prototype change).
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

type ErrorName = ReturnType<typeof JsoncParser.printParseErrorCode>;

/**
 * jsonc-parser (nine CommonJS modules, about 17 ms of CPU to load) is needed only for what plain
 * JSON.parse cannot read or must not: comments, trailing commas, a duplicate key, a syntax error
 * to word. Being CommonJS, it can be required on first use, which keeps parseJsonc synchronous.
 */
const requireFromHere = createRequire(import.meta.url);
let jsoncParser: typeof JsoncParser | undefined;

/** What was expected, for the errors that are about a missing token. */
const EXPECTED: Partial<Record<ErrorName, string>> = {
  PropertyNameExpected: 'a double-quoted property name or "}"',
  ValueExpected: "a JSON value",
  InvalidSymbol: "a JSON value",
  ColonExpected: '":"',
  CloseBraceExpected: '"," or "}"',
  CloseBracketExpected: '"," or "]"',
  EndOfFileExpected: "end of input",
};

/** Errors about a malformed token, said as such. */
const PROBLEMS: Partial<Record<ErrorName, string>> = {
  InvalidNumberFormat: "invalid number",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated /* comment",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape in string",
  InvalidCharacter: "control character in string (escape it)",
};

type Container = { kind: "object"; value: Record<string, unknown>; key?: string } | { kind: "array"; value: unknown[] };

export function parseJsonc(text: string): unknown {
  const plain = parsePlainJson(text);
  if (plain !== undefined) return plain.value;
  jsoncParser ??= requireFromHere("jsonc-parser") as typeof JsoncParser;
  const { printParseErrorCode, visit } = jsoncParser;
  // The parser does not skip a byte order mark; offsets below are shifted back onto `text`.
  const shift = text.startsWith("\uFEFF") ? 1 : 0;
  const source = text.slice(shift);
  const stack: Container[] = [];
  let root: unknown;
  let sawValue = false;
  let firstError: JsoncSyntaxError | undefined;
  const fail = (message: string, offset: number): void => {
    firstError ??= new JsoncSyntaxError(message, offset + shift);
  };

  const add = (value: unknown): void => {
    sawValue = true;
    const parent = stack.at(-1);
    if (parent === undefined) root = value;
    else if (parent.kind === "array") parent.value.push(value);
    else if (parent.key !== undefined) {
      // defineProperty, so a "__proto__" key is data and not a prototype change.
      Object.defineProperty(parent.value, parent.key, { value, enumerable: true, writable: true, configurable: true });
      parent.key = undefined;
    }
  };

  visit(
    source,
    {
      onObjectBegin: () => {
        const value: Record<string, unknown> = {};
        add(value);
        stack.push({ kind: "object", value });
      },
      onObjectProperty: (property, offset) => {
        const parent = stack.at(-1);
        if (parent?.kind !== "object") return;
        if (Object.hasOwn(parent.value, property)) fail(`duplicate property name ${JSON.stringify(property)}`, offset);
        parent.key = property;
      },
      onObjectEnd: () => void stack.pop(),
      onArrayBegin: () => {
        const value: unknown[] = [];
        add(value);
        stack.push({ kind: "array", value });
      },
      onArrayEnd: () => void stack.pop(),
      onLiteralValue: (value: unknown) => add(value),
      onError: (code: ParseErrorCode, offset: number) =>
        fail(describeError(printParseErrorCode(code), source, offset, stack.at(-1), sawValue), offset),
    },
    { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false },
  );
  if (firstError !== undefined) throw firstError;
  return root;
}

function describeError(
  name: ErrorName,
  text: string,
  offset: number,
  container: Container | undefined,
  sawValue: boolean,
): string {
  if (name === "ValueExpected" && !sawValue && text.slice(offset).trim() === "")
    return "the file is empty; expected a JSON object";
  const problem = PROBLEMS[name];
  if (problem !== undefined) return problem;
  const expected =
    name === "CommaExpected"
      ? container?.kind === "array"
        ? '"," or "]"'
        : '"," or "}"'
      : (EXPECTED[name] ?? "valid JSON");
  const found = offset >= text.length ? "end of input" : `character ${JSON.stringify(text[offset])}`;
  return `unexpected ${found}, expected ${expected}`;
}

/** 1-based line and column of a 0-based offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - before.lastIndexOf("\n");
  return { line, column };
}
