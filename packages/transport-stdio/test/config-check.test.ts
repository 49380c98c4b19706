import fc from "fast-check";
import { Check } from "typebox/schema";
import { describe, expect, it } from "vitest";
import { StdioServerConfigSchema } from "../src/config-schema-entry.js";
import { findStdioConfigIssues } from "../src/index.js";

// Values near the schema's edges: each field right, wrong in kind, empty, or holding a wrong item.
const stringish = fc.oneof(fc.string(), fc.constant(""), fc.anything());
const stringList = fc.oneof(fc.array(fc.string()), fc.array(fc.anything()), fc.anything());
const stringRecord = fc.oneof(
  fc.dictionary(fc.string(), fc.string()),
  fc.dictionary(fc.string(), fc.anything()),
  fc.anything(),
);
const nearConfig = fc.record(
  {
    command: stringish,
    args: stringList,
    env: stringRecord,
    cwd: stringish,
    inheritEnv: fc.oneof(fc.boolean(), stringList),
    extra: fc.anything(),
  },
  { requiredKeys: [] },
);

describe("findStdioConfigIssues", () => {
  it("accepts exactly what StdioServerConfigSchema accepts", () => {
    fc.assert(
      fc.property(fc.oneof(nearConfig, fc.anything()), (config) => {
        expect(findStdioConfigIssues(config).length === 0).toBe(Check(StdioServerConfigSchema, config));
      }),
      { numRuns: 2000 },
    );
  });

  it("names every bad field at once, by JSON pointer", () => {
    const issues = findStdioConfigIssues({ command: "", args: ["a", 1], env: { "a/b": 2 }, cwd: 3, inheritEnv: "yes" });
    expect(issues.map((issue) => issue.path)).toEqual(["/command", "/args/1", "/env/a~1b", "/cwd", "/inheritEnv"]);
    expect(issues.map((issue) => issue.message)).toEqual([
      "command must not be empty",
      "args.1 must be a string",
      "env.a/b must be a string",
      "cwd must be a string",
      "inheritEnv must be true, false or a list of environment variable names",
    ]);
  });

  it("says a missing command is required", () => {
    expect(findStdioConfigIssues({ args: [] })).toEqual([{ path: "/command", message: "command is required" }]);
  });
});
