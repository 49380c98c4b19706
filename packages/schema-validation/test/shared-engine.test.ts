import { describe, expect, it } from "vitest";
import { createSchemaValidator } from "../src/index.js";
import { sharedScopeSize } from "../src/ajv-engines.js";

/** A distinct schema per index that uses refs, a pattern, a format, an enum and a length check. */
function distinctSchema(index: number): Record<string, unknown> {
  return {
    type: "object",
    $defs: {
      node: { type: "object", properties: { next: { $ref: "#/$defs/node" }, id: { type: "integer", maximum: index } } },
    },
    properties: {
      code: { type: "string", pattern: `^c${index}-[a-z]+$`, maxLength: 20 + index },
      at: { type: "string", format: "date-time" },
      mode: { enum: ["a", `m${index}`] },
      tree: { $ref: "#/$defs/node" },
    },
    required: ["code"],
  };
}

describe("the shared ajv engine", () => {
  it("does not grow with every compiled schema, and earlier validators keep working", () => {
    const validator = createSchemaValidator({ maxCacheEntries: 5 });
    const first = validator.compile(distinctSchema(0));
    validator.compile(distinctSchema(1));
    const sizeAfterFirstCompiles = sharedScopeSize("2020-12");
    for (let index = 2; index < 300; index++) validator.compile(distinctSchema(index));
    expect(sharedScopeSize("2020-12")).toBeLessThanOrEqual(sizeAfterFirstCompiles);

    expect(
      first.validate({ code: "c0-ab", at: "2024-01-01T00:00:00Z", mode: "m0", tree: { next: { id: 0 } } }),
    ).toEqual({ valid: true, errors: [] });
    const result = first.validate({ code: "c1-ab", at: "yesterday", mode: "m1", tree: { next: { next: { id: 1 } } } });
    expect(result.errors.map((issue) => `${issue.path} ${issue.keyword}`)).toEqual([
      "/code pattern",
      "/at format",
      "/mode enum",
      "/tree/next/next/id maximum",
    ]);
  });
});
