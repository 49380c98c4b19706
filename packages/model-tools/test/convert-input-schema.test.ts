import { createSchemaValidator } from "@mcp-tool-adapter/schema-validation";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertInputSchema, ModelToolsError, SCHEMA_DIALECTS, type SchemaDialect } from "../src/index.js";

const validator = createSchemaValidator();

const person = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, description: "Who" },
    age: { type: "integer", minimum: 0 },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
    kind: { enum: ["a", "b"] },
    address: { $ref: "#/$defs/address" },
  },
  required: ["name"],
  $defs: {
    address: {
      type: "object",
      properties: { city: { type: "string" }, zip: { type: ["string", "null"] } },
      required: ["city"],
    },
  },
};

describe("convertInputSchema: openai-strict", () => {
  it("makes every property required, optional ones nullable, objects closed, and says so", () => {
    const converted = convertInputSchema(person, "openai-strict");
    expect(converted.strict).toBe(true);
    expect(converted.schema).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "Who (minLength: 1)" },
        age: { type: ["integer", "null"], minimum: 0 },
        tags: { type: ["array", "null"], items: { type: "string" }, description: "(uniqueItems: true)" },
        kind: { anyOf: [{ enum: ["a", "b"] }, { type: "null" }] },
        address: {
          type: ["object", "null"],
          properties: { city: { type: "string" }, zip: { type: ["string", "null"] } },
          required: ["city", "zip"],
          additionalProperties: false,
        },
      },
      required: ["name", "age", "tags", "kind", "address"],
      additionalProperties: false,
    });
    expect(converted.changes).toEqual([
      "/: references inlined; $defs / definitions removed",
      "/: $schema removed",
      "/properties/name: minLength moved into the description",
      "/properties/tags: uniqueItems moved into the description",
      '/properties/address: optional "zip" made required and nullable (null means "not given")',
      "/properties/address: additionalProperties set to false",
      '/: optional "age", "tags", "kind", "address" made required and nullable (null means "not given")',
      "/: additionalProperties set to false",
    ]);
  });

  it("reports the same changes whenever they are read, in every dialect, without touching the schema", () => {
    for (const dialect of SCHEMA_DIALECTS) {
      const converted = convertInputSchema(person, dialect);
      const schemaBefore = structuredClone(converted.schema);
      const restored = converted.restoreArguments({ name: "Ada", age: null });
      const changes = converted.changes;
      expect(changes.length).toBeGreaterThan(0);
      expect(converted.changes).toBe(changes);
      expect(converted.schema).toEqual(schemaBefore);
      expect(convertInputSchema(person, dialect).changes).toEqual(changes);
      expect(restored).toEqual({ name: "Ada" });
    }
  });

  it("maps the model's nulls for optional properties back to absent, keeping nulls the real schema allows", () => {
    const converted = convertInputSchema(person, "openai-strict");
    const fromModel = { name: "Ada", age: null, tags: null, kind: "a", address: { city: "London", zip: null } };
    expect(validator.validate(converted.schema, fromModel).valid).toBe(true);
    const restored = converted.restoreArguments(fromModel);
    expect(restored).toEqual({ name: "Ada", kind: "a", address: { city: "London", zip: null } });
    expect(validator.validate(person, restored).valid).toBe(true);
    expect(validator.validate(person, fromModel).valid).toBe(false);
  });

  it("keeps strict formats, moves others into the description, turns oneOf into anyOf", () => {
    const converted = convertInputSchema(
      {
        type: "object",
        properties: {
          when: { type: "string", format: "date-time" },
          site: { type: "string", format: "uri" },
          id: { oneOf: [{ type: "string" }, { type: "integer" }] },
        },
        required: ["when", "site", "id"],
      },
      "openai-strict",
    );
    expect(converted.strict).toBe(true);
    expect(converted.schema.properties).toEqual({
      when: { type: "string", format: "date-time" },
      site: { type: "string", description: '(format: "uri")' },
      id: { anyOf: [{ type: "string" }, { type: "integer" }] },
    });
    expect(converted.changes).toContain(
      "/properties/id: oneOf turned into anyOf (a value matching several branches is then refused by the tool's own validation)",
    );
  });

  it("moves constraints that only narrow (not, conditionals) into the description and stays strict", () => {
    const converted = convertInputSchema(
      {
        type: "object",
        properties: { a: { type: "string", not: { const: "x" } } },
        required: ["a"],
        if: { required: ["a"] },
        then: { required: ["a"] },
      },
      "openai-strict",
    );
    expect(converted.strict).toBe(true);
    expect(converted.schema.properties).toEqual({ a: { type: "string", description: '(not: {"const":"x"})' } });
    expect(converted.schema.description).toBe(
      '(the arguments must also match if: {"required":["a"]}, then: {"required":["a"]})',
    );
  });

  it("merges an allOf of plain objects and stays strict", () => {
    const converted = convertInputSchema(
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "number" } } },
        ],
      },
      "openai-strict",
    );
    expect(converted.strict).toBe(true);
    expect(converted.schema).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: ["number", "null"] } },
      required: ["a", "b"],
      additionalProperties: false,
    });
  });

  it.each([
    [
      "a free-form nested object",
      { type: "object", properties: { meta: { type: "object" } } },
      "/properties/meta: an object with free-form keys",
    ],
    [
      "a map",
      { type: "object", properties: { env: { type: "object", additionalProperties: { type: "string" } } } },
      "/properties/env: typed additional properties (a map) are not supported",
    ],
    [
      "an untyped value",
      { type: "object", properties: { value: {} } },
      "/properties/value: a value of any type is not supported (the schema names no type)",
    ],
    [
      "patternProperties",
      { type: "object", properties: { a: { type: "string" } }, patternProperties: { "^x-": { type: "string" } } },
      "/: patternProperties is not supported",
    ],
    [
      "tuples",
      { type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }] } } },
      "/properties/pair: prefixItems is not supported",
    ],
    [
      "an array of anything",
      { type: "object", properties: { list: { type: "array" } } },
      "/properties/list: an array of items of any type",
    ],
    ["deep nesting", nested(12), "objects nested deeper than 10 levels"],
  ])("falls back to non-strict for %s, saying why", (_label, schema, reason) => {
    const converted = convertInputSchema(schema, "openai-strict");
    expect(converted.strict).toBe(false);
    expect(converted.schema).toEqual(convertInputSchema(schema, "openai").schema);
    const note = converted.changes.at(-1)!;
    expect(note.startsWith("not strict (sent as a plain OpenAI schema): ")).toBe(true);
    expect(note).toContain(reason);
  });

  it("a tool without arguments is strict with no properties", () => {
    expect(convertInputSchema({ type: "object" }, "openai-strict")).toMatchObject({
      strict: true,
      schema: { type: "object", properties: {}, required: [], additionalProperties: false },
    });
  });

  it("a node shared between conversions (an optional bare type) is frozen: one tool's schema cannot change another's", () => {
    const first = convertInputSchema({ type: "object", properties: { verbose: { type: "boolean" } } }, "openai-strict");
    const second = convertInputSchema({ type: "object", properties: { quiet: { type: "boolean" } } }, "openai-strict");
    const verbose = (first.schema.properties as Record<string, Record<string, unknown>>).verbose!;
    expect(verbose).toEqual({ type: ["boolean", "null"] });
    expect(Object.isFrozen(verbose)).toBe(true);
    expect(() => {
      verbose.type = "string";
    }).toThrow(TypeError);
    expect(second.schema.properties).toEqual({ quiet: { type: ["boolean", "null"] } });
  });

  it("a property whose type is only inherited is not taken for a plain optional leaf", () => {
    const inherited = Object.create({ type: "boolean" }) as Record<string, unknown>;
    const converted = convertInputSchema({ type: "object", properties: { flag: inherited } }, "openai-strict");
    // Its own keys are none: it converts like an empty schema, not like { type: "boolean" }.
    expect(converted.schema.properties).toEqual({ flag: { anyOf: [{}, { type: "null" }] } });
  });

  it("property: null-filled model answers restore to arguments the real schema accepts", () => {
    const propertySchema = fc.constantFrom<Record<string, unknown>>(
      { type: "string" },
      { type: "integer" },
      { type: "boolean" },
      { type: "array", items: { type: "number" } },
      { enum: ["x", "y"] },
      { type: "object", properties: { inner: { type: "string" } } },
    );
    const sampleValue = (schema: Record<string, unknown>): unknown =>
      schema.type === "string"
        ? "s"
        : schema.type === "integer"
          ? 1
          : schema.type === "boolean"
            ? true
            : schema.type === "array"
              ? [1.5]
              : schema.enum
                ? "x"
                : { inner: null };
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.tuple(propertySchema, fc.boolean()), {
          minKeys: 1,
          maxKeys: 6,
        }),
        (spec) => {
          const schema = {
            type: "object",
            properties: Object.fromEntries(Object.entries(spec).map(([name, [property]]) => [name, property])),
            required: Object.entries(spec)
              .filter(([, [, required]]) => required)
              .map(([name]) => name),
          };
          const converted = convertInputSchema(schema, "openai-strict");
          expect(converted.strict).toBe(true);
          const fromModel = Object.fromEntries(
            Object.entries(spec).map(([name, [property, required]]) => [name, required ? sampleValue(property) : null]),
          );
          expect(validator.validate(converted.schema, fromModel).valid).toBe(true);
          expect(validator.validate(schema, converted.restoreArguments(fromModel)).errors).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("convertInputSchema: references", () => {
  it("inlines $defs and definitions, keeping annotations next to a $ref", () => {
    const converted = convertInputSchema(
      {
        type: "object",
        properties: { a: { $ref: "#/definitions/x", description: "the a" } },
        definitions: { x: { type: "string" } },
      },
      "openai",
    );
    expect(converted.schema).toEqual({ type: "object", properties: { a: { type: "string", description: "the a" } } });
  });

  it("cuts recursion after one level and is not strict then", () => {
    const tree = {
      type: "object",
      properties: { root: { $ref: "#/$defs/node" } },
      $defs: {
        node: {
          type: "object",
          properties: { value: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
          required: ["value"],
        },
      },
    };
    const converted = convertInputSchema(tree, "openai-strict");
    expect(converted.strict).toBe(false);
    expect(converted.schema).toEqual({
      type: "object",
      properties: {
        root: {
          type: "object",
          properties: {
            value: { type: "string" },
            children: { type: "array", items: { description: "(recursive: the same shape as #/$defs/node)" } },
          },
          required: ["value"],
        },
      },
    });
    expect(converted.changes[0]).toBe(
      "/properties/root/properties/children/items: recursive reference #/$defs/node cut after one level; any value is accepted there by the converted schema",
    );
  });

  it("cuts a self-reference to the root", () => {
    const converted = convertInputSchema({ type: "object", properties: { next: { $ref: "#" } } }, "gemini");
    expect(converted.schema).toEqual({
      type: "OBJECT",
      properties: {
        next: { type: "OBJECT", properties: { next: { description: "(recursive: the same shape as #)" } } },
      },
    });
  });

  it("leaves an unresolvable reference open and says so", () => {
    const converted = convertInputSchema(
      { type: "object", properties: { a: { $ref: "https://example.com/schema.json" } } },
      "anthropic",
    );
    expect(converted.schema).toEqual({ type: "object", properties: { a: {} } });
    expect(converted.changes).toContain(
      "/properties/a: reference https://example.com/schema.json could not be resolved (only local references are followed); any value is accepted there",
    );
  });

  it("stops expanding a reference chain that would explode", () => {
    const defs: Record<string, unknown> = { d0: { type: "string" } };
    for (let i = 1; i <= 30; i += 1)
      defs[`d${i}`] = {
        type: "object",
        properties: { left: { $ref: `#/$defs/d${i - 1}` }, right: { $ref: `#/$defs/d${i - 1}` } },
      };
    const converted = convertInputSchema(
      { type: "object", properties: { top: { $ref: "#/$defs/d30" } }, $defs: defs },
      "openai-strict",
    );
    expect(converted.strict).toBe(false);
    expect(converted.changes.some((change) => change.includes("schema too large after expanding references"))).toBe(
      true,
    );
  });
});

describe("convertInputSchema: root rules", () => {
  it.each(SCHEMA_DIALECTS.filter((dialect) => dialect !== "gemini"))(
    "%s: moves top-level anyOf into the description and keeps an object root",
    (dialect) => {
      const converted = convertInputSchema(
        {
          type: "object",
          properties: { a: { type: "string" }, b: { type: "string" } },
          anyOf: [{ required: ["a"] }, { required: ["b"] }],
        },
        dialect,
      );
      expect(converted.schema.type).toBe("object");
      expect(converted.schema.anyOf).toBeUndefined();
      expect(converted.schema.description).toBe(
        '(the arguments must also match anyOf: [{"required":["a"]},{"required":["b"]}])',
      );
      expect(converted.changes).toContain("/: anyOf at the top level is not accepted; moved into the description");
    },
  );

  it("gives a non-object root an object type and properties", () => {
    const converted = convertInputSchema({ type: "string" }, "anthropic");
    expect(converted.schema).toEqual({ type: "object", properties: {} });
    expect(converted.changes).toContain(
      '/: type "string" replaced by "object" (function arguments are always an object)',
    );
  });

  it("refuses an unknown dialect with a clear error", () => {
    expect(() => convertInputSchema({ type: "object" }, "mistral" as SchemaDialect)).toThrow(ModelToolsError);
    expect(() => convertInputSchema({ type: "object" }, "mistral" as SchemaDialect)).toThrow(
      /unknown dialect "mistral"; use one of openai-strict, openai, anthropic, gemini/,
    );
  });
});

describe("convertInputSchema: gemini", () => {
  it("uses Gemini's OpenAPI subset and describes what it cannot express", () => {
    const converted = convertInputSchema(person, "gemini");
    expect(converted.schema).toEqual({
      type: "OBJECT",
      properties: {
        name: { minLength: 1, description: "Who", type: "STRING" },
        age: { minimum: 0, type: "INTEGER" },
        tags: { type: "ARRAY", items: { type: "STRING" }, description: "(uniqueItems: true)" },
        kind: { type: "STRING", enum: ["a", "b"], format: "enum" },
        address: {
          type: "OBJECT",
          properties: { city: { type: "STRING" }, zip: { type: "STRING", nullable: true } },
          required: ["city"],
        },
      },
      required: ["name"],
    });
  });

  it("handles const, numeric enums, type lists, formats, examples and additionalProperties", () => {
    const converted = convertInputSchema(
      {
        type: "object",
        additionalProperties: false,
        properties: {
          mode: { const: "fast" },
          level: { type: "integer", enum: [1, 2, 3] },
          id: { type: ["string", "integer"] },
          when: { type: "string", format: "date-time", examples: ["2026-01-01T00:00:00Z"] },
          site: { type: "string", format: "uri" },
          env: { type: "object", additionalProperties: { type: "string" } },
          ratio: { type: "number", exclusiveMinimum: 0, multipleOf: 0.5 },
          choice: { oneOf: [{ type: "string" }, { type: "null" }] },
        },
      },
      "gemini",
    );
    expect(converted.schema.properties).toEqual({
      mode: { type: "STRING", enum: ["fast"], format: "enum" },
      level: { type: "INTEGER", description: "(one of: [1,2,3])" },
      id: { anyOf: [{ type: "STRING" }, { type: "INTEGER" }] },
      when: { type: "STRING", format: "date-time", example: "2026-01-01T00:00:00Z" },
      site: { type: "STRING", description: "(format: uri)" },
      env: { type: "OBJECT", description: '(other keys allowed: {"type":"string"})' },
      ratio: { type: "NUMBER", description: "(exclusiveMinimum: 0; multipleOf: 0.5)" },
      choice: { type: "STRING", nullable: true },
    });
    expect(converted.changes).toContain("/: additionalProperties: false removed (not supported)");
    expect(converted.changes).toContain("/properties/mode: const turned into a one-value enum");
  });
});

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = {
    type: "object",
    properties: { leaf: { type: "string" } },
    required: ["leaf"],
  };
  for (let i = 0; i < depth; i += 1) schema = { type: "object", properties: { child: schema }, required: ["child"] };
  return schema;
}
