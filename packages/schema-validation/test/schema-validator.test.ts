import { describe, expect, it } from "vitest";
import { createSchemaValidator, formatValidationErrors, SchemaValidationError, type Logger } from "../src/index.js";

interface LogRecord {
  level: "debug" | "warn";
  message: string;
  data?: Record<string, unknown>;
}

function recordingLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    logger: {
      debug: (message, data) => records.push({ level: "debug", message, ...(data ? { data } : {}) }),
      warn: (message, data) => records.push({ level: "warn", message, ...(data ? { data } : {}) }),
    },
  };
}

function compileError(schema: unknown): SchemaValidationError {
  try {
    createSchemaValidator().compile(schema);
  } catch (error) {
    if (SchemaValidationError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected compile to throw");
}

const ARTICLE = {
  type: "object",
  properties: { title: { type: "string" }, body: { type: "string" } },
  required: ["title", "body"],
};

describe("validation results", () => {
  it("accepts a valid value with no errors", () => {
    expect(createSchemaValidator().validate(ARTICLE, { title: "t", body: "b" })).toEqual({ valid: true, errors: [] });
  });

  it("reports every problem with its path, keyword and rule", () => {
    const result = createSchemaValidator().validate(ARTICLE, { title: 42 });
    expect(result.valid).toBe(false);
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { path: "/title", keyword: "type", message: "must be string" },
        { path: "", keyword: "required", message: "must have required property 'body'" },
      ]),
    );
    expect(result.errors).toHaveLength(2);
    expect(formatValidationErrors(result.errors).split("; ").sort()).toEqual([
      "/title must be string",
      "must have required property 'body'",
    ]);
  });

  it("names the unexpected property when additional properties are forbidden", () => {
    const result = createSchemaValidator().validate({ type: "object", additionalProperties: false }, { extra: 1 });
    expect(formatValidationErrors(result.errors)).toBe("must NOT have additional properties: 'extra'");
  });

  it("escapes paths as JSON Pointers", () => {
    const result = createSchemaValidator().validate(
      { properties: { "a/b": { properties: { "c~d": { type: "number" } } } } },
      { "a/b": { "c~d": "x" } },
    );
    expect(result.errors[0]?.path).toBe("/a~1b/c~0d");
  });

  it("checks formats", () => {
    const validator = createSchemaValidator();
    expect(validator.validate({ format: "email" }, "someone@example.com").valid).toBe(true);
    expect(formatValidationErrors(validator.validate({ format: "email" }, "nope").errors)).toBe(
      'must match format "email"',
    );
    expect(validator.validate({ format: "date-time" }, "2025-06-18T10:00:00Z").valid).toBe(true);
    expect(validator.validate({ format: "uri" }, "not a uri").valid).toBe(false);
  });

  it("accepts boolean schemas", () => {
    const validator = createSchemaValidator();
    expect(validator.validate(true, { anything: 1 }).valid).toBe(true);
    expect(validator.validate(false, 1)).toEqual({
      valid: false,
      errors: [{ path: "", keyword: "false schema", message: "boolean schema is false" }],
    });
  });

  it("compiles schemas with unknown keywords (strict mode off) and warns about unknown formats", () => {
    const { logger, records } = recordingLogger();
    const validator = createSchemaValidator({ logger });
    expect(validator.validate({ type: "string", "x-ui-widget": "textarea", format: "made-up" }, "text").valid).toBe(
      true,
    );
    expect(records.some((r) => r.level === "warn" && r.message.includes('unknown format "made-up"'))).toBe(true);
  });
});

describe("dialects", () => {
  const tupleOf = (draft: string | undefined) => ({
    ...(draft === undefined ? {} : { $schema: draft }),
    prefixItems: [{ type: "string" }],
  });

  it("uses 2020-12 when $schema is absent", () => {
    expect(createSchemaValidator().validate(tupleOf(undefined), [1]).valid).toBe(false);
    expect(createSchemaValidator().validate({ dependentRequired: { a: ["b"] } }, { a: 1 }).errors[0]?.keyword).toBe(
      "dependentRequired",
    );
  });

  it.each(["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft/2020-12/schema#"])(
    "runs 2020-12 for %s",
    (draft) => {
      expect(createSchemaValidator().validate(tupleOf(draft), [1]).valid).toBe(false);
    },
  );

  it.each([
    "http://json-schema.org/draft-07/schema#",
    "https://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema#",
  ])("runs draft-07 rules for %s", (draft) => {
    const validator = createSchemaValidator();
    // prefixItems is not a draft-07 keyword; array-form items is.
    expect(validator.validate(tupleOf(draft), [1]).valid).toBe(true);
    expect(validator.validate({ $schema: draft, items: [{ type: "string" }] }, [1]).valid).toBe(false);
  });

  it("runs 2019-09 for its $schema", () => {
    const schema = { $schema: "https://json-schema.org/draft/2019-09/schema", dependentRequired: { a: ["b"] } };
    expect(formatValidationErrors(createSchemaValidator().validate(schema, { a: 1 }).errors)).toBe(
      "must have property b when property a is present",
    );
  });

  it("rejects draft-04 and unknown dialects with the supported list", () => {
    const old = compileError({ $schema: "http://json-schema.org/draft-04/schema#" });
    expect(old.code).toBe("SCHEMA_INVALID");
    expect(old.message).toContain("older draft");
    expect(old.message).toContain("https://json-schema.org/draft/2020-12/schema");
    const unknown = compileError({ $schema: "https://example.invalid/my-dialect" });
    expect(unknown.message).toContain("not a known JSON Schema dialect");
    expect(compileError({ $schema: 7 }).message).toContain('"$schema" must be a URI string, got 7');
  });
});

describe("$ref", () => {
  it("follows #/definitions in draft-07 and #/$defs in 2020-12", () => {
    const validator = createSchemaValidator();
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { name: { type: "string" } },
      properties: { n: { $ref: "#/definitions/name" } },
    };
    const draft2020 = { $defs: { name: { type: "string" } }, properties: { n: { $ref: "#/$defs/name" } } };
    for (const schema of [draft07, draft2020]) {
      expect(validator.validate(schema, { n: "ok" }).valid).toBe(true);
      expect(validator.validate(schema, { n: 1 }).errors).toEqual([
        { path: "/n", keyword: "type", message: "must be string" },
      ]);
    }
  });

  it("follows recursive references", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
      $ref: "#/$defs/node",
    };
    const result = createSchemaValidator().validate(tree, {
      value: 1,
      children: [{ value: 2, children: [{ value: "three" }] }],
    });
    expect(result.errors).toEqual([
      { path: "/children/0/children/0/value", keyword: "type", message: "must be number" },
    ]);
    expect(
      createSchemaValidator()
        .validate({ properties: { self: { $ref: "#" } }, required: ["x"] }, { x: 1, self: { self: {} } })
        .errors.map((e) => e.path),
    ).toEqual(["/self", "/self/self"]);
  });

  it("resolves absolute references to the schema's own $id without fetching", () => {
    const schema = {
      $id: "https://tools.example.invalid/search.json",
      $defs: { q: { type: "string" } },
      properties: { q: { $ref: "https://tools.example.invalid/search.json#/$defs/q" } },
    };
    expect(createSchemaValidator().validate(schema, { q: 5 }).errors[0]?.path).toBe("/q");
  });

  it.each(["#/definitions/missing", "https://example.invalid/remote.json", "other.json#/x"])(
    "reports %s as unresolved, naming it",
    (ref) => {
      const error = compileError({ properties: { a: { $ref: ref } } });
      expect(error.code).toBe("SCHEMA_REF_UNRESOLVED");
      expect(error.ref).toContain(ref.replace(/^#/, ""));
      expect(error.message).toContain("nothing is fetched");
    },
  );

  it("keeps schemas with the same $id independent", () => {
    const validator = createSchemaValidator();
    const first = { $id: "https://example.invalid/tool.json", type: "string" };
    const second = { $id: "https://example.invalid/tool.json", type: "number" };
    expect(validator.validate(first, "a").valid).toBe(true);
    expect(validator.validate(second, 1).valid).toBe(true);
    expect(validator.validate(second, "a").valid).toBe(false);
    // One schema must not be able to reach another through its $id.
    expect(compileError({ $ref: "https://example.invalid/tool.json" }).code).toBe("SCHEMA_REF_UNRESOLVED");
  });

  it("refuses a schema claiming a meta-schema's $id, and stays usable afterwards", () => {
    const draft07 = "http://json-schema.org/draft-07/schema#";
    expect(compileError({ $schema: draft07, $id: draft07 }).message).toContain("is the id of a meta-schema");
    expect(createSchemaValidator().validate({ $schema: draft07, type: "integer" }, 1.5).valid).toBe(false);
  });
});

describe("invalid schemas", () => {
  it.each([
    [{ type: "strin" }, "/type must be equal to one of the allowed values"],
    [{ minLength: "x" }, "/minLength must be integer"],
    [{ pattern: "[" }, "Invalid regular expression"],
    [null, "must be an object or a boolean, got null"],
    [[{ type: "string" }], "got an array"],
    ["string", "got a string"],
    [{ $async: true, type: "object" }, '"$async" schemas are not supported'],
  ])("reports %j as SCHEMA_INVALID with the reason", (schema, reason) => {
    const error = compileError(schema);
    expect(error.code).toBe("SCHEMA_INVALID");
    expect(error.message).toContain("Invalid JSON Schema");
    expect(error.message).toContain(reason);
  });

  it("reports schemas that are not JSON", () => {
    const circular: Record<string, unknown> = { type: "object" };
    circular.properties = { self: circular };
    expect(compileError(circular).message).toContain('"/properties/self" contains itself');
    expect(compileError({ type: "string", maxLength: 10n }).message).toContain('"/maxLength" is a bigint');
    expect(compileError({ default: () => 1 }).message).toContain("is a function");
    expect(compileError({ maximum: Number.NaN }).message).toContain("is NaN");
    expect(compileError({ enum: [undefined] }).message).toContain('"/enum/0" is undefined');
    expect(compileError({ const: new Date(0) }).message).toContain("with a prototype");
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 300; i++) deep = { items: deep };
    expect(compileError(deep).message).toContain("nested deeper than 256 levels");
  });

  it("gives validate() an invalid result naming the problem instead of throwing", () => {
    const validator = createSchemaValidator();
    expect(validator.validate({ type: "strin" }, "x")).toEqual({
      valid: false,
      errors: [{ path: "", keyword: "schema", message: expect.stringContaining("Invalid JSON Schema") as string }],
    });
    const unresolved = validator.validate({ $ref: "#/$defs/nope" }, "x");
    expect(unresolved.errors[0]?.keyword).toBe("$ref");
    expect(unresolved.errors[0]?.message).toContain('"#/$defs/nope"');
    expect(validator.validate(Symbol("schema"), 1).errors[0]?.message).toContain("the schema root is a symbol");
  });

  it("turns a schema that throws while being read into SCHEMA_INVALID", () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("no peeking");
        },
      },
    );
    const error = compileError(hostile);
    expect(error.code).toBe("SCHEMA_INVALID");
    expect(error.message).toContain("no peeking");
  });

  it("logs each compile failure once, as failures are cached too", () => {
    const { logger, records } = recordingLogger();
    const validator = createSchemaValidator({ logger });
    for (let i = 0; i < 3; i++) expect(validator.validate({ type: "strin" }, 1).valid).toBe(false);
    expect(records.filter((r) => r.level === "warn")).toEqual([
      {
        level: "warn",
        message: "JSON Schema could not be compiled",
        data: { code: "SCHEMA_INVALID", reason: expect.stringContaining("/type") as string },
      },
    ]);
    expect(validator.cacheSize).toBe(1);
  });
});

function arrayWithHole(): number[] {
  const holes = new Array<number>(3);
  holes[0] = 1;
  holes[2] = 3;
  return holes;
}

describe("values that are not JSON", () => {
  const validator = createSchemaValidator();
  const anything = { properties: { a: { type: "string" } }, items: { type: "number" }, uniqueItems: true };

  it.each([
    ["BigInt", 10n],
    ["function", () => 1],
    ["symbol", Symbol("s")],
    ["undefined", undefined],
    ["Map", new Map([["a", 1]])],
    ["array with holes", arrayWithHole()],
    ["__proto__ key", JSON.parse('{"__proto__": {"a": 1}, "a": "x"}') as unknown],
  ])("validates a %s without throwing", (_name, value) => {
    const result = validator.validate(anything, value);
    expect(typeof result.valid).toBe("boolean");
  });

  it("reports a circular value the schema recurses into as not validatable", () => {
    const node: Record<string, unknown> = { value: 1 };
    node.next = node;
    const list = {
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    };
    const result = validator.validate(list, node);
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.keyword).toBe("value");
    expect(result.errors[0]?.message).toContain("could not be validated");
    // A circular value is fine when the schema does not recurse into it.
    expect(validator.validate({ type: "object", required: ["value"] }, node).valid).toBe(true);
  });

  it("reports a value that throws when read", () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("boom");
        },
        has: () => true,
        ownKeys: () => ["a"],
        getOwnPropertyDescriptor: () => ({ configurable: true, enumerable: true, value: 1 }),
      },
    );
    const result = validator.validate(
      { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
      hostile,
    );
    expect(result).toEqual({
      valid: false,
      errors: [{ path: "", keyword: "value", message: expect.stringContaining("boom") as string }],
    });
  });
});

describe("compile cache", () => {
  it("compiles equal schemas once, whatever their key order", () => {
    const { logger, records } = recordingLogger();
    const validator = createSchemaValidator({ logger });
    const a = validator.compile({ type: "object", properties: { x: { type: "number", minimum: 0 } }, required: ["x"] });
    const b = validator.compile({ required: ["x"], properties: { x: { minimum: 0, type: "number" } }, type: "object" });
    expect(b).toBe(a);
    expect(validator.cacheSize).toBe(1);
    expect(records.filter((r) => r.message === "compiled JSON Schema")).toHaveLength(1);
    expect(
      validator.compile({ type: "object", properties: { x: { type: "number", minimum: 1 } }, required: ["x"] }),
    ).not.toBe(a);
    expect(validator.cacheSize).toBe(2);
  });

  it("tells apart schemas that differ only in value types", () => {
    const validator = createSchemaValidator();
    expect(validator.validate({ const: 1 }, 1).valid).toBe(true);
    expect(validator.validate({ const: "1" }, 1).valid).toBe(false);
    expect(validator.cacheSize).toBe(2);
  });

  it("drops the least recently used schema beyond maxCacheEntries", () => {
    const { logger, records } = recordingLogger();
    const validator = createSchemaValidator({ logger, maxCacheEntries: 2 });
    const first = validator.compile({ const: 1 });
    const second = validator.compile({ const: 2 });
    expect(validator.compile({ const: 1 })).toBe(first); // now the most recent
    validator.compile({ const: 3 }); // evicts { const: 2 }
    expect(validator.cacheSize).toBe(2);
    expect(records.some((r) => r.message.startsWith("schema cache full"))).toBe(true);
    expect(validator.compile({ const: 1 })).toBe(first);
    expect(validator.compile({ const: 2 })).not.toBe(second);
  });

  it("keeps validating with a compiled schema after it leaves the cache", () => {
    const validator = createSchemaValidator({ maxCacheEntries: 1 });
    const compiled = validator.compile({ type: "string" });
    validator.compile({ type: "number" });
    expect(compiled.validate("x").valid).toBe(true);
    expect(compiled.validate(1).valid).toBe(false);
  });

  it("rejects a maxCacheEntries that is not a positive integer", () => {
    expect(() => createSchemaValidator({ maxCacheEntries: 0 })).toThrow(
      /maxCacheEntries must be a positive integer, got 0/,
    );
    expect(() => createSchemaValidator({ maxCacheEntries: 1.5 })).toThrow(RangeError);
  });
});
