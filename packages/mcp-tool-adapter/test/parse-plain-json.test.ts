import { describe, expect, it } from "vitest";
import { parsePlainJson } from "../src/config-file/parse-plain-json.js";
import { parseJsonc } from "../src/config-file/parse-jsonc.js";

// The JSON.parse shortcut of the config reader (issue 37): it must read exactly what the JSONC
// parser reads, and leave to it everything JSON.parse would read differently or not at all.

describe("parsePlainJson", () => {
  it.each([
    ['{ "mcpServers": { "a": { "command": "node", "args": ["s.js", "x:y"], "env": {} } } }'],
    ['{"a":{"b":[{"c":1},{"c":2}]},"d":"\\"e\\": 1","f":{"__proto__":{"g":true}}}'],
    ['{ "key with \\\\ backslash" : 1, "k2"\n:\t[] }'],
    ["[]"],
    ['"text"'],
  ])("reads plain JSON %s as the JSONC parser does", (text) => {
    const plain = parsePlainJson(text);
    expect(plain).toBeDefined();
    expect(plain?.value).toEqual(parseJsonc(text));
  });

  it("keeps a __proto__ key as data", () => {
    const value = parsePlainJson('{"__proto__": {"polluted": true}}')?.value as Record<string, unknown>;
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['{"a": 1, "a": 2}'],
    ['{"x": {"b": 1, "c": {"d": 1, "d": 1}}}'],
    ['{"__proto__": 1, "__proto__": 2}'],
    ['{"a": 1, // comment\n "b": 2}'],
    ['{"a": 1,}'],
    ['\uFEFF{"a": 1}'],
    ["{ not json"],
    [""],
  ])("leaves %j to the JSONC parser", (text) => {
    expect(parsePlainJson(text)).toBeUndefined();
  });

  it("still reports a duplicate key through the JSONC parser", () => {
    expect(() => parseJsonc('{"a": 1, "a": 2}')).toThrow(/duplicate property name "a"/);
  });
});
