import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSchemaValidator, type ValidationResult } from "../src/index.js";

const validator = createSchemaValidator({ maxCacheEntries: 200 });

function expectWellFormed(result: ValidationResult): void {
  expect(typeof result.valid).toBe("boolean");
  expect(result.valid).toBe(result.errors.length === 0);
  for (const issue of result.errors) {
    expect(typeof issue.path).toBe("string");
    expect(typeof issue.keyword).toBe("string");
    expect(issue.message.length).toBeGreaterThan(0);
  }
}

const typeName = fc.constantFrom("string", "number", "integer", "boolean", "object", "array", "null");

/** Schema-shaped objects built from real keywords, including local $refs and odd combinations. */
const schemaLike = fc.letrec<{ schema: Record<string, unknown> | boolean }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.boolean(),
    fc.record(
      {
        type: fc.oneof(typeName, fc.array(typeName, { minLength: 1, maxLength: 3 })),
        properties: fc.dictionary(fc.string({ maxLength: 5 }), tie("schema"), { maxKeys: 3 }),
        required: fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
        items: tie("schema"),
        prefixItems: fc.array(tie("schema"), { maxLength: 2 }),
        additionalProperties: tie("schema"),
        anyOf: fc.array(tie("schema"), { minLength: 1, maxLength: 2 }),
        not: tie("schema"),
        enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }),
        const: fc.jsonValue({ maxDepth: 1 }),
        minimum: fc.integer(),
        maxLength: fc.nat(10),
        pattern: fc.constantFrom("^a", "[0-9]+", "\\p{L}", "^$"),
        format: fc.constantFrom("email", "uri", "date-time", "uuid", "unknown-format"),
        $ref: fc.constantFrom("#", "#/$defs/a", "#/$defs/missing"),
        $defs: fc.record({ a: tie("schema") }),
        dependentRequired: fc.dictionary(
          fc.string({ maxLength: 3 }),
          fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
          { maxKeys: 2 },
        ),
      },
      { requiredKeys: [] },
    ),
  ),
}));

/** Values that are not JSON: BigInt, functions, symbols, holes, odd prototypes, __proto__ keys. */
const anyValue = fc
  .anything({
    maxDepth: 4,
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
    stringUnit: "binary",
    key: fc.oneof(fc.string(), fc.constant("__proto__")),
  })
  .chain((value) => fc.constantFrom(value, [value, () => value], { value, symbol: Symbol("s") }));

describe("never throws", () => {
  it("validates arbitrary JSON against arbitrary JSON treated as a schema", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (schema, value) => {
        expectWellFormed(validator.validate(schema, value));
      }),
      { numRuns: 300 },
    );
  });

  it("validates arbitrary JSON against schema-shaped objects", () => {
    fc.assert(
      fc.property(schemaLike.schema, fc.jsonValue({ maxDepth: 4 }), (schema, value) => {
        expectWellFormed(validator.validate(schema, value));
      }),
      { numRuns: 300 },
    );
  });

  it("validates arbitrary values, not only JSON, against schemas that compile", () => {
    let compiledCount = 0;
    fc.assert(
      fc.property(schemaLike.schema, anyValue, (schema, value) => {
        let compiled;
        try {
          compiled = validator.compile(schema);
        } catch {
          return; // this property is about valid schemas; invalid ones are covered above
        }
        compiledCount += 1;
        expectWellFormed(compiled.validate(value));
      }),
      { numRuns: 300 },
    );
    // Guards against a generator that only yields schemas that fail to compile.
    expect(compiledCount).toBeGreaterThan(50);
  });
});

describe("cache key", () => {
  it("ignores key order: a reordered schema gets the same compilation", () => {
    const reorder = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(reorder);
      if (typeof value !== "object" || value === null) return value;
      return Object.fromEntries(
        Object.entries(value)
          .reverse()
          .map(([k, v]) => [k, reorder(v)]),
      );
    };
    fc.assert(
      fc.property(schemaLike.schema, (schema) => {
        let compiled;
        try {
          compiled = validator.compile(schema);
        } catch {
          return;
        }
        expect(validator.compile(reorder(schema))).toBe(compiled);
      }),
      { numRuns: 200 },
    );
  });
});
