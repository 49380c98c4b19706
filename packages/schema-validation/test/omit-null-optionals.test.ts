import { describe, expect, it } from "vitest";
import { createSchemaValidator, omitNullOptionals } from "../src/index.js";

const schema = {
  type: "object",
  properties: {
    query: { type: "string" },
    verbose: { type: "boolean" },
    note: { type: ["string", "null"] },
    mode: { enum: ["fast", "slow"] },
    level: { $ref: "#/$defs/level" },
    maybe: { anyOf: [{ type: "string" }, { type: "null" }] },
    either: { oneOf: [{ type: "string" }, { type: "number" }] },
    anything: {},
    tagged: { description: "no type at all" },
    nested: {
      type: "object",
      properties: { depth: { type: "integer" }, keep: { type: "string" } },
      required: ["keep"],
    },
    list: { type: "array", items: { type: "object", properties: { x: { type: "string" } } } },
  },
  required: ["query"],
  $defs: { level: { type: "integer" } },
};

describe("omitNullOptionals", () => {
  it("removes a null for an optional property whose schema refuses null", () => {
    expect(omitNullOptionals(schema, { query: "a", verbose: null })).toEqual({ query: "a" });
    expect(omitNullOptionals(schema, { query: "a", mode: null, level: null, either: null })).toEqual({ query: "a" });
  });

  it("keeps a null for a required property, so validation still reports it", () => {
    expect(omitNullOptionals(schema, { query: null })).toEqual({ query: null });
  });

  it("keeps a null where the schema accepts null or cannot say", () => {
    const args = { query: "a", note: null, maybe: null, anything: null, tagged: null, undeclared: null };
    expect(omitNullOptionals(schema, args)).toBe(args);
  });

  it("cleans objects nested under declared properties and array items by the same rule", () => {
    const args = { query: "a", nested: { depth: null, keep: null }, list: [{ x: null }, { x: "y" }, null] };
    expect(omitNullOptionals(schema, args)).toEqual({
      query: "a",
      nested: { keep: null },
      list: [{}, { x: "y" }, null],
    });
  });

  it('keeps a "__proto__" argument an own property of the copy, never the prototype', () => {
    const withProto: unknown = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"a":{"type":"string"}}}}}',
    );
    const args = JSON.parse('{"__proto__":{"a":null}}') as Record<string, unknown>;
    const cleaned = omitNullOptionals(withProto, args);
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(Object.hasOwn(cleaned, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(cleaned, "__proto__")?.value).toEqual({});
  });

  it("returns the arguments themselves when nothing is removed, and never modifies them", () => {
    const untouched = { query: "a", verbose: true, nested: { depth: 1, keep: "k" } };
    expect(omitNullOptionals(schema, untouched)).toBe(untouched);
    const given = Object.freeze({ query: "a", verbose: null, nested: Object.freeze({ depth: null, keep: "k" }) });
    expect(omitNullOptionals(schema, given)).toEqual({ query: "a", nested: { keep: "k" } });
    expect(given).toEqual({ query: "a", verbose: null, nested: { depth: null, keep: "k" } });
  });

  it("follows a root $ref, and treats a remote or broken $ref as unknown", () => {
    const byRef = { $ref: "#/$defs/args", $defs: { args: { type: "object", properties: { n: { type: "number" } } } } };
    expect(omitNullOptionals(byRef, { n: null })).toEqual({});
    const unknown = {
      type: "object",
      properties: { remote: { $ref: "https://example.com/s.json" }, broken: { $ref: "#/$defs/%E0%A4%A" } },
    };
    const args = { remote: null, broken: null };
    expect(omitNullOptionals(unknown, args)).toBe(args);
  });

  it("stops on a cyclic $ref without removing anything", () => {
    const cyclic = { type: "object", properties: { loop: { $ref: "#/$defs/a" } }, $defs: { a: { $ref: "#/$defs/a" } } };
    const args = { loop: null };
    expect(omitNullOptionals(cyclic, args)).toBe(args);
  });

  it("leaves the arguments alone for a schema that is not an object schema", () => {
    const args = { a: null };
    for (const odd of [undefined, null, true, "object", { type: "object" }])
      expect(omitNullOptionals(odd, args)).toBe(args);
  });

  it("never turns valid arguments into other arguments, and makes the null-for-optional calls valid", () => {
    const compiled = createSchemaValidator().compile(schema);
    const cases: Record<string, unknown>[] = [
      { query: "a", note: null, maybe: null, anything: null, tagged: null },
      { query: "a", nested: { keep: "k" } },
      { query: "a", verbose: null, mode: null, level: null, either: null, nested: { depth: null, keep: "k" } },
    ];
    for (const args of cases) {
      const cleaned = omitNullOptionals(schema, args);
      if (compiled.validate(args).valid) expect(cleaned).toBe(args);
      expect(compiled.validate(cleaned).valid).toBe(true);
    }
    expect(compiled.validate(omitNullOptionals(schema, { query: null })).valid).toBe(false);
  });
});
