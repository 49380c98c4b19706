import { describe, expect, it } from "vitest";
import { findToolsetsIssues, matchToolset, RegistryError, selectToolset } from "../src/index.js";

const names = [
  "github/search_issues",
  "github/search_code",
  "github/delete_repo",
  "github/create_issue",
  "memory/read_graph",
  "memory/create_entities",
  "filesystem/read_file",
];

const pick = (patterns: string[]): string[] => names.filter(matchToolset(patterns));

describe("matchToolset", () => {
  it("takes namespace/tool globs and whole namespaces", () => {
    expect(pick(["github/search_*", "memory"])).toEqual([
      "github/search_issues",
      "github/search_code",
      "memory/read_graph",
      "memory/create_entities",
    ]);
    expect(pick(["*/read_*"])).toEqual(["memory/read_graph", "filesystem/read_file"]);
    expect(pick(["github/search_?ode"])).toEqual(["github/search_code"]);
  });

  it("lets the last matching pattern decide, so a negation after a glob removes and a glob after it adds back", () => {
    expect(pick(["github/*", "!github/delete_*"])).toEqual([
      "github/search_issues",
      "github/search_code",
      "github/create_issue",
    ]);
    expect(pick(["github/*", "!github/*", "github/delete_repo"])).toEqual(["github/delete_repo"]);
  });

  it("reads a list that starts with a negation as every tool except those", () => {
    expect(pick(["!github/*", "!memory/create_*"])).toEqual(["memory/read_graph", "filesystem/read_file"]);
  });

  it("is empty for an empty list and treats regex characters literally", () => {
    expect(pick([])).toEqual([]);
    expect(matchToolset(["a.b/x+y"])("a.b/x+y")).toBe(true);
    expect(matchToolset(["a.b/x+y"])("aXb/xxy")).toBe(false);
  });

  it("refuses a bad pattern with INVALID_TOOLSET naming it", () => {
    for (const bad of ["", "!", "a/b/c", "/tool", "ns/"]) {
      const error = captured(() => matchToolset([bad]));
      expect(RegistryError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "INVALID_TOOLSET" });
    }
    expect(() => matchToolset(["a/b/c"])).toThrow(/pattern 0 "a\/b\/c" has more than one "\/"/);
  });
});

describe("selectToolset", () => {
  const toolsets = { research: ["github/search_*", "memory/*"], writer: ["filesystem/*"] };

  it("returns the named toolset's matcher", () => {
    expect(names.filter(selectToolset(toolsets, "writer"))).toEqual(["filesystem/read_file"]);
  });

  it("refuses an unknown name with UNKNOWN_TOOLSET naming the known ones", () => {
    const error = captured(() => selectToolset(toolsets, "ops"));
    expect(error).toMatchObject({ code: "UNKNOWN_TOOLSET" });
    expect((error as Error).message).toBe('No toolset "ops"; the toolsets are "research", "writer".');
    expect(() => selectToolset(undefined, "ops")).toThrow(/none are defined/);
  });

  it("names the toolset of a bad pattern", () => {
    expect(() => selectToolset({ bad: ["a/b/c"] }, "bad")).toThrow(/Toolset "bad": Toolset pattern 0/);
  });
});

describe("findToolsetsIssues", () => {
  it("lists every problem with its place", () => {
    expect(findToolsetsIssues({ ok: ["a/*"], notList: "a/*", badItems: ["a/b/c", 3] }, "/toolsets")).toEqual([
      { path: "/toolsets/notList", message: 'must be a list of "namespace/tool" patterns' },
      { path: "/toolsets/badItems/0", message: expect.stringContaining("more than one") as string },
      { path: "/toolsets/badItems/1", message: "must be a string" },
    ]);
    expect(findToolsetsIssues([])).toEqual([
      { path: "", message: expect.stringContaining("must be an object") as string },
    ]);
    expect(findToolsetsIssues({ ok: ["a/*", "!a/b"] })).toEqual([]);
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
