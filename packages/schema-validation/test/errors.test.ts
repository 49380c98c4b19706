import { describe, expect, it } from "vitest";
import { SchemaValidationError } from "../src/index.js";

describe("SchemaValidationError", () => {
  it("carries a stable code, the unresolved ref and the cause", () => {
    const cause = new Error("ajv said no");
    const error = new SchemaValidationError("SCHEMA_REF_UNRESOLVED", "cannot resolve", { ref: "#/x", cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("SchemaValidationError");
    expect(error.code).toBe("SCHEMA_REF_UNRESOLVED");
    expect(error.ref).toBe("#/x");
    expect(error.cause).toBe(cause);
    expect(Object.hasOwn(new SchemaValidationError("SCHEMA_INVALID", "bad"), "ref")).toBe(false);
  });

  it("recognizes instances across package copies through the shared marker", () => {
    const fromOtherCopy = {
      name: "SchemaValidationError",
      code: "SCHEMA_INVALID",
      [Symbol.for("mcp-tool-adapter.error")]: true,
    };
    expect(SchemaValidationError.isInstance(new SchemaValidationError("SCHEMA_INVALID", "bad"))).toBe(true);
    expect(SchemaValidationError.isInstance(fromOtherCopy)).toBe(true);
    expect(SchemaValidationError.isInstance(new Error("plain"))).toBe(false);
    expect(SchemaValidationError.isInstance({ ...fromOtherCopy, name: "OtherError" })).toBe(false);
    expect(SchemaValidationError.isInstance(null)).toBe(false);
    expect(SchemaValidationError.isInstance("SchemaValidationError")).toBe(false);
  });
});
