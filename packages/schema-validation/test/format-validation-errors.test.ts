import { describe, expect, it } from "vitest";
import {
  createSchemaValidator,
  DEFAULT_MAX_FORMATTED_ERRORS,
  formatValidationErrors,
  type ValidationIssue,
} from "../src/index.js";

const issue = (path: string, message: string): ValidationIssue => ({ path, keyword: "x", message });

describe("formatValidationErrors", () => {
  it("joins path and rule, leaving the path out at the root", () => {
    expect(
      formatValidationErrors([issue("/title", "must be string"), issue("", "must have required property 'body'")]),
    ).toBe("/title must be string; must have required property 'body'");
  });

  it("keeps the order validation found the problems in: the README's example, on both paths", () => {
    const article = {
      type: "object",
      properties: { title: { type: "string" }, body: { type: "string" } },
      required: ["title", "body"],
    };
    const expected = "must have required property 'body'; /title must be string";
    expect(formatValidationErrors(createSchemaValidator().compile(article).validate({ title: 42 }).errors)).toBe(
      expected,
    );
    // An unknown keyword sends the same schema through ajv instead of the interpreter.
    expect(
      formatValidationErrors(
        createSchemaValidator()
          .compile({ ...article, "x-extra": 1 })
          .validate({ title: 42 }).errors,
      ),
    ).toBe(expected);
  });

  it("gives an empty string for no errors", () => {
    expect(formatValidationErrors([])).toBe("");
  });

  it("spells out the first 20 and counts the rest", () => {
    const many = Array.from({ length: 25 }, (_, i) => issue(`/${i}`, "must be number"));
    const text = formatValidationErrors(many);
    expect(DEFAULT_MAX_FORMATTED_ERRORS).toBe(20);
    expect(text.split("; ")).toHaveLength(21);
    expect(text).toContain("/19 must be number");
    expect(text).not.toContain("/20 must be number");
    expect(text.endsWith("; and 5 more")).toBe(true);
  });

  it("accepts a different limit and ignores a nonsensical one", () => {
    const many = Array.from({ length: 3 }, (_, i) => issue(`/${i}`, "bad"));
    expect(formatValidationErrors(many, { maxErrors: 1 })).toBe("/0 bad; and 2 more");
    expect(formatValidationErrors(many, { maxErrors: Number.NaN })).toBe("/0 bad; /1 bad; /2 bad");
    expect(formatValidationErrors(many, { maxErrors: 0 })).toBe("/0 bad; /1 bad; /2 bad");
  });
});
