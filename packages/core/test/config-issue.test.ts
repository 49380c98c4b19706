import { describe, expect, it } from "vitest";
import { findStringRecordIssues, type ConfigIssue } from "../src/index.js";

describe("findStringRecordIssues", () => {
  it("adds one issue for a value that is not an object of strings", () => {
    for (const value of [null, "a=b", ["a"], 3]) {
      const issues: ConfigIssue[] = [];
      findStringRecordIssues(value, "/env", issues);
      expect(issues).toEqual([{ path: "/env", message: "env must be an object of strings" }]);
    }
  });

  it("adds one issue per entry that is not a string, its key escaped in the pointer, after the issues already found", () => {
    const issues: ConfigIssue[] = [{ path: "/url", message: "url is required" }];
    findStringRecordIssues({ ok: "v", "a/b~c": 1, n: null }, "/headers", issues);
    expect(issues).toEqual([
      { path: "/url", message: "url is required" },
      { path: "/headers/a~1b~0c", message: "headers.a/b~c must be a string" },
      { path: "/headers/n", message: "headers.n must be a string" },
    ]);
  });

  it("adds nothing for an object of strings", () => {
    const issues: ConfigIssue[] = [];
    findStringRecordIssues({ HOME: "/home/me", EMPTY: "" }, "/env", issues);
    expect(issues).toEqual([]);
  });
});
