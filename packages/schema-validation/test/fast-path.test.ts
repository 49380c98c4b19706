import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../src/compile-schema.js";
import { isSimpleSchema } from "../src/simple-schema.js";

const viaAjv = (schema: unknown, value: unknown) =>
  compileSchema(schema, undefined, { interpretSimpleSchemas: false }).validate(value);
const viaInterpreter = (schema: Record<string, unknown>, value: unknown) => {
  expect(isSimpleSchema(schema)).toBe(true);
  return compileSchema(schema).validate(value);
};

// Names include ones that exist on Object.prototype and ones JSON Pointer must escape.
const propertyName = fc.constantFrom("a", "b", "query", "limit", "constructor", "toString", "x/y", "t~1", "");
const primitive = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 5 }),
  fc.boolean(),
  fc.constant(null),
);
const count = fc.integer({ min: 0, max: 6 });
const limit = fc.oneof(
  fc.integer({ min: -10, max: 10 }),
  fc.double({ min: -10, max: 10, noNaN: true, noDefaultInfinity: true }),
);
const simpleType = fc.constantFrom("string", "number", "integer", "boolean", "null", "array", "object");

const leafSchema = fc.record(
  {
    type: simpleType,
    enum: fc.uniqueArray(primitive, { minLength: 1, maxLength: 4, comparator: "SameValueZero" }),
    minimum: limit,
    maximum: limit,
    exclusiveMinimum: limit,
    exclusiveMaximum: limit,
    minLength: count,
    maxLength: count,
    minItems: count,
    maxItems: count,
    title: fc.string({ maxLength: 3 }),
    description: fc.string({ maxLength: 3 }),
    default: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);

const { schema: simpleSchema } = fc.letrec<{ schema: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafSchema,
    fc.tuple(leafSchema, tie("schema")).map(([leaf, items]) => ({ ...leaf, items })),
    fc.record(
      {
        type: fc.constantFrom("object", "string"),
        properties: fc.dictionary(propertyName, tie("schema"), { maxKeys: 4 }),
        required: fc.uniqueArray(propertyName, { maxLength: 3 }),
        additionalProperties: fc.boolean(),
        enum: fc.uniqueArray(primitive, { minLength: 1, maxLength: 2, comparator: "SameValueZero" }),
      },
      { requiredKeys: [] },
    ),
  ),
}));

const dialect = fc.constantFrom(
  undefined,
  "https://json-schema.org/draft/2020-12/schema",
  "http://json-schema.org/draft-07/schema#",
);

const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive,
    fc.constantFrom(0.5, -0, Number.NaN, Number.POSITIVE_INFINITY, "😀😀", "\ud83d", "a\ud83d\ude00b"),
    fc.double(),
    fc.array(tie("value"), { maxLength: 7 }),
    fc.dictionary(propertyName, tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("interpreted simple schemas", () => {
  // Compiles a few hundred schemas in both engines: CPU-bound, so on CI's two shared cores it
  // needs more than the default 15 s bound (no time is asserted).
  it("agree with ajv on every verdict and issue list", () => {
    fc.assert(
      fc.property(simpleSchema, dialect, fc.array(value, { minLength: 1, maxLength: 4 }), (schema, $schema, values) => {
        const withDialect = $schema === undefined ? schema : { $schema, ...schema };
        for (const candidate of values) {
          expect(viaInterpreter(withDialect, candidate)).toEqual(viaAjv(withDialect, candidate));
        }
      }),
      { numRuns: 400 },
    );
  }, 60_000);

  it("agree with ajv on values shaped like the schema", () => {
    // Random values rarely match deep schemas; these mostly do, so keyword-level issues show up.
    const schema = {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 5 },
        limit: { type: "integer", minimum: 1, maximum: 10 },
        tags: { type: "array", items: { type: "string", maxLength: 2 }, maxItems: 2 },
        mode: { type: "string", enum: ["fast", "slow"] },
      },
      required: ["query"],
      additionalProperties: false,
    };
    const shaped = fc.record(
      {
        query: fc.oneof(fc.string({ maxLength: 7 }), value),
        limit: fc.oneof(fc.integer({ min: -2, max: 12 }), value),
        tags: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 3 }), value), { maxLength: 4 }), value),
        mode: fc.oneof(fc.constantFrom("fast", "slow", "other"), value),
        extra: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(shaped, (candidate) => {
        expect(viaInterpreter(schema, candidate)).toEqual(viaAjv(schema, candidate));
      }),
      { numRuns: 500 },
    );
  });
});

describe("interpreted keywords", () => {
  const issues = (schema: Record<string, unknown>, candidate: unknown) => viaInterpreter(schema, candidate).errors;

  it("type, with integers rejecting fractions and the error placed as ajv places it", () => {
    expect(issues({ type: "integer" }, 1.5)).toEqual([{ path: "", keyword: "type", message: "must be integer" }]);
    expect(issues({ type: "integer", minimum: 2 }, 1.5)).toEqual([
      { path: "", keyword: "type", message: "must be integer" },
      { path: "", keyword: "minimum", message: "must be >= 2" },
    ]);
    expect(issues({ type: "string", minLength: 1, enum: ["a"] }, 3).map((i) => i.keyword)).toEqual(["enum", "type"]);
    expect(issues({ type: "string", enum: ["a"] }, 3).map((i) => i.keyword)).toEqual(["type", "enum"]);
    expect(issues({ type: "null" }, null)).toEqual([]);
  });

  it("enum, minimum, maximum and the exclusive limits", () => {
    expect(issues({ enum: ["a", 1] }, "b")).toEqual([
      { path: "", keyword: "enum", message: "must be equal to one of the allowed values" },
    ]);
    expect(issues({ maximum: 5 }, 6)[0]?.message).toBe("must be <= 5");
    expect(issues({ minimum: 5 }, 4)[0]?.message).toBe("must be >= 5");
    expect(issues({ exclusiveMaximum: 5 }, 5)[0]?.message).toBe("must be < 5");
    expect(issues({ exclusiveMinimum: 5 }, 5)[0]?.message).toBe("must be > 5");
    expect(issues({ minimum: 0 }, Number.NaN).map((i) => i.keyword)).toEqual(["minimum"]);
  });

  it("minLength and maxLength count code points", () => {
    expect(issues({ maxLength: 1 }, "😀")).toEqual([]);
    expect(issues({ maxLength: 1 }, "ab")).toEqual([
      { path: "", keyword: "maxLength", message: "must NOT have more than 1 characters" },
    ]);
    expect(issues({ minLength: 2 }, "😀")[0]?.message).toBe("must NOT have fewer than 2 characters");
  });

  it("items, minItems and maxItems", () => {
    expect(issues({ items: { type: "string" }, maxItems: 1 }, ["a", 2])).toEqual([
      { path: "", keyword: "maxItems", message: "must NOT have more than 1 items" },
      { path: "/1", keyword: "type", message: "must be string" },
    ]);
    expect(issues({ minItems: 1 }, [])[0]?.message).toBe("must NOT have fewer than 1 items");
  });

  it("required, properties and additionalProperties", () => {
    const schema = {
      type: "object",
      properties: { "a/b": { type: "string" } },
      required: ["c"],
      additionalProperties: false,
    };
    expect(issues(schema, { "a/b": 1, d: true })).toEqual([
      { path: "", keyword: "required", message: "must have required property 'c'" },
      { path: "", keyword: "additionalProperties", message: "must NOT have additional properties: 'd'" },
      { path: "/a~1b", keyword: "type", message: "must be string" },
    ]);
    expect(issues(schema, [])).toEqual([{ path: "", keyword: "type", message: "must be object" }]);
  });

  it("reports a value it cannot read instead of throwing", () => {
    const hostile = Object.defineProperty({}, "a", {
      enumerable: true,
      get: () => {
        throw new Error("boom");
      },
    });
    const result = viaInterpreter({ properties: { a: { type: "string" } } }, hostile);
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toContain("boom");
  });
});

describe("the recogniser", () => {
  it("admits typical tool schemas and sends everything else to ajv", () => {
    expect(isSimpleSchema({ $schema: "x", type: "object", properties: { a: { type: "string", default: "z" } } })).toBe(
      true,
    );
    for (const schema of [
      { pattern: "a" },
      { format: "uri" },
      { type: ["string", "null"] },
      { $ref: "#" },
      { properties: { a: { $schema: "x" } } },
      { properties: { ["__proto__"]: { type: "string" } } },
      { properties: { a: true } },
      { enum: [] },
      { enum: [1, 1] },
      { enum: [{}] },
      { required: ["a", "a"] },
      { minLength: -1 },
      { maxItems: 1.5 },
      { minimum: "1" },
      { items: [{ type: "string" }] },
      { additionalProperties: { type: "string" } },
      { description: 3 },
      { nullable: true },
    ]) {
      expect(isSimpleSchema(schema as Record<string, unknown>), JSON.stringify(schema)).toBe(false);
    }
  });

  it("leaves invalid schemas to ajv, so their errors stay the same", () => {
    expect(() => compileSchema({ type: "object", properties: { a: { minLength: -1 } } })).toThrow(
      /minLength must be >= 0/,
    );
  });
});
