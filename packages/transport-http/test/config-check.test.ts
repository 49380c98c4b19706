import fc from "fast-check";
import { Type } from "typebox";
import { Check } from "typebox/schema";
import { describe, expect, it } from "vitest";
import { HttpServerConfigSchema } from "../src/config-schema-entry.js";
import { findHttpConfigIssues } from "../src/index.js";

// The check looks at the fields only; the transport's schema also refuses unknown fields.
const FieldsSchema = Type.Object(HttpServerConfigSchema.properties);

const nearConfig = fc.record(
  {
    url: fc.oneof(fc.webUrl(), fc.constant(""), fc.anything()),
    headers: fc.oneof(
      fc.dictionary(fc.string(), fc.string()),
      fc.dictionary(fc.string(), fc.anything()),
      fc.anything(),
    ),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe("findHttpConfigIssues", () => {
  it("accepts exactly what the fields of HttpServerConfigSchema accept", () => {
    fc.assert(
      fc.property(fc.oneof(nearConfig, fc.anything()), (config) => {
        expect(findHttpConfigIssues(config).length === 0).toBe(Check(FieldsSchema, config));
      }),
      { numRuns: 2000 },
    );
  });

  it("names every bad field at once, by JSON pointer", () => {
    expect(findHttpConfigIssues({ headers: { "X-A": 1, ok: "b" } })).toEqual([
      { path: "/url", message: "url is required" },
      { path: "/headers/X-A", message: "headers.X-A must be a string" },
    ]);
    expect(findHttpConfigIssues({ url: "", headers: [] }).map((issue) => issue.path)).toEqual(["/url", "/headers"]);
  });
});
