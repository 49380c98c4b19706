import { describe, expect, it } from "vitest";
import {
  inferCapabilities,
  READ_KEYWORDS,
  WRITE_KEYWORDS,
  type CapabilityOverrides,
  type CapabilitySource,
  type ToolAnnotationHints,
} from "../src/index.js";

describe("the spec's keyword table", () => {
  it("has exactly the spec's keywords", () => {
    expect(READ_KEYWORDS).toEqual(["read", "get", "list", "search", "find"]);
    expect(WRITE_KEYWORDS).toEqual(["write", "create", "update", "delete", "set"]);
    expect(Object.isFrozen(READ_KEYWORDS)).toBe(true);
    expect(Object.isFrozen(WRITE_KEYWORDS)).toBe(true);
  });

  it.each([
    ["list_repos", true, false],
    ["create_issue", false, true],
    ["delete_branch", false, true],
    ["run_pipeline", false, false],
    ["get-user-details", true, false],
    ["search_and_update", false, true],
  ])("spec example %s -> readOnly %s, writes %s", (name, readOnly, writes) => {
    const capability = inferCapabilities(name);
    expect(capability.readOnly).toBe(readOnly);
    expect(capability.writes).toBe(writes);
  });

  it.each(READ_KEYWORDS.map((keyword) => [keyword]))("read keyword %s alone is read-only", (keyword) => {
    expect(inferCapabilities(`${keyword}_thing`)).toEqual({
      readOnly: true,
      writes: false,
      decidedBy: { readOnly: "name", writes: "name" },
    });
  });

  it.each(WRITE_KEYWORDS.map((keyword) => [keyword]))("write keyword %s alone writes", (keyword) => {
    expect(inferCapabilities(`thing${keyword[0]!.toUpperCase()}${keyword.slice(1)}`)).toEqual({
      readOnly: false,
      writes: true,
      decidedBy: { readOnly: "name", writes: "name" },
    });
  });

  it("write wins when a name holds both kinds of keyword, in any order", () => {
    for (const name of ["search_and_update", "updateThenGet", "find.or.create", "list/delete"]) {
      expect(inferCapabilities(name), name).toMatchObject({ readOnly: false, writes: true });
    }
  });

  it("reports neither, decided by default, when no source says anything", () => {
    expect(inferCapabilities("run_pipeline")).toEqual({
      readOnly: false,
      writes: false,
      decidedBy: { readOnly: "default", writes: "default" },
    });
  });

  it.each([
    ["getUserDetails", true, false],
    ["GetUserDetails", true, false],
    ["getHTTPStatus", true, false],
    ["HTTPGet", true, false],
    ["list2Items", true, false],
    ["v2_list", true, false],
    ["repo:search", true, false],
    ["READ_FILE", true, false],
    ["bulkDeleteV2", false, true],
    ["user.update", false, true],
    ["Set Value", false, true],
  ])("matches keywords as whole words of %s", (name, readOnly, writes) => {
    expect(inferCapabilities(name)).toMatchObject({ readOnly, writes });
  });

  it.each([
    "settings",
    "target",
    "dataset",
    "reset_cache",
    "widget",
    "getter",
    "listen",
    "finder",
    "offset",
    "upsert",
    "updates",
    "readme",
    "created",
  ])("a keyword inside another word (%s) matches nothing", (name) => {
    expect(inferCapabilities(name)).toMatchObject({ readOnly: false, writes: false });
  });
});

/** The README's rule table, row by row. */
type Row = [
  label: string,
  name: string,
  annotations: ToolAnnotationHints,
  overrides: CapabilityOverrides,
  readOnly: boolean,
  writes: boolean,
  decidedBy: { readOnly: CapabilitySource; writes: CapabilitySource },
];
const policy: Row[] = [
  [
    "annotation read-only on a neutral name",
    "echo",
    { readOnlyHint: true },
    {},
    true,
    false,
    { readOnly: "annotation", writes: "annotation" },
  ],
  [
    "annotation read-only agrees with a read name",
    "list_x",
    { readOnlyHint: true },
    {},
    true,
    false,
    { readOnly: "annotation", writes: "annotation" },
  ],
  [
    "name says writes, annotation says read-only: writes",
    "create_x",
    { readOnlyHint: true },
    {},
    false,
    true,
    { readOnly: "name", writes: "name" },
  ],
  [
    "name says read, readOnlyHint false: writes",
    "get_x",
    { readOnlyHint: false },
    {},
    false,
    true,
    { readOnly: "annotation", writes: "annotation" },
  ],
  [
    "name says read, destructiveHint true: writes",
    "get_x",
    { destructiveHint: true },
    {},
    false,
    true,
    { readOnly: "annotation", writes: "annotation" },
  ],
  [
    "readOnlyHint true with destructiveHint true: writes",
    "x",
    { readOnlyHint: true, destructiveHint: true },
    {},
    false,
    true,
    { readOnly: "annotation", writes: "annotation" },
  ],
  [
    "destructiveHint false alone says nothing",
    "get_x",
    { destructiveHint: false },
    {},
    true,
    false,
    { readOnly: "name", writes: "name" },
  ],
  [
    "idempotent/openWorld hints alone say nothing",
    "run",
    { idempotentHint: true, openWorldHint: true },
    {},
    false,
    false,
    { readOnly: "default", writes: "default" },
  ],
  [
    "override readOnly true beats a write name",
    "delete_x",
    {},
    { readOnly: true },
    true,
    false,
    { readOnly: "override", writes: "override" },
  ],
  [
    "override readOnly true beats readOnlyHint false",
    "x",
    { readOnlyHint: false, destructiveHint: true },
    { readOnly: true },
    true,
    false,
    { readOnly: "override", writes: "override" },
  ],
  [
    "override writes true beats a read name",
    "get_x",
    { readOnlyHint: true },
    { writes: true },
    false,
    true,
    { readOnly: "override", writes: "override" },
  ],
  [
    "override readOnly and writes both true: writes",
    "x",
    {},
    { readOnly: true, writes: true },
    false,
    true,
    { readOnly: "override", writes: "override" },
  ],
  [
    "override destructive true means writes",
    "get_x",
    {},
    { destructive: true },
    false,
    true,
    { readOnly: "override", writes: "override" },
  ],
  [
    "override readOnly false on a read name",
    "get_x",
    {},
    { readOnly: false },
    false,
    false,
    { readOnly: "override", writes: "name" },
  ],
  [
    "override writes false on a write name",
    "create_x",
    {},
    { writes: false },
    false,
    false,
    { readOnly: "name", writes: "override" },
  ],
  [
    "override writes false keeps a stated read-only",
    "x",
    { readOnlyHint: true },
    { writes: false },
    true,
    false,
    { readOnly: "annotation", writes: "override" },
  ],
  [
    "override readOnly false keeps a stated write",
    "create_x",
    {},
    { readOnly: false },
    false,
    true,
    { readOnly: "override", writes: "name" },
  ],
  [
    "overrides both false",
    "get_x",
    { readOnlyHint: true },
    { readOnly: false, writes: false },
    false,
    false,
    { readOnly: "override", writes: "override" },
  ],
];

describe("the combination policy (overrides, then annotations, then names; conservative)", () => {
  it.each(policy)("%s", (_label, name, annotations, overrides, readOnly, writes, decidedBy) => {
    const capability = inferCapabilities(name, annotations, overrides);
    expect(capability.readOnly).toBe(readOnly);
    expect(capability.writes).toBe(writes);
    expect(capability.decidedBy).toMatchObject(decidedBy);
  });

  it("never reports readOnly and writes both true, for any combination", () => {
    const values = [undefined, true, false];
    for (const name of ["get_x", "create_x", "search_and_update", "run"]) {
      for (const readOnlyHint of values)
        for (const destructiveHint of values)
          for (const readOnly of values)
            for (const writes of values)
              for (const destructive of values) {
                const capability = inferCapabilities(
                  name,
                  { readOnlyHint, destructiveHint },
                  { readOnly, writes, destructive },
                );
                expect(capability.readOnly && capability.writes).toBe(false);
                // A destructive tool is a writing tool.
                if (capability.destructive === true) expect(capability.writes).toBe(true);
              }
    }
  });
});

describe("destructive, idempotent and openWorld: only where known", () => {
  it("omits them when nothing states them, even though MCP has defaults for them", () => {
    const capability = inferCapabilities("edit", { readOnlyHint: false });
    expect(Object.keys(capability).sort()).toEqual(["decidedBy", "readOnly", "writes"]);
    expect(Object.keys(capability.decidedBy).sort()).toEqual(["readOnly", "writes"]);
  });

  it("reports stated annotations, decided by annotation", () => {
    expect(
      inferCapabilities("x", {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: true,
      }),
    ).toEqual({
      readOnly: false,
      writes: true,
      destructive: false,
      idempotent: true,
      openWorld: true,
      decidedBy: {
        readOnly: "annotation",
        writes: "annotation",
        destructive: "annotation",
        idempotent: "annotation",
        openWorld: "annotation",
      },
    });
  });

  it("lets overrides win per field", () => {
    const capability = inferCapabilities(
      "x",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      { idempotent: true, openWorld: false },
    );
    expect(capability).toMatchObject({ destructive: true, idempotent: true, openWorld: false });
    expect(capability.decidedBy).toMatchObject({
      destructive: "annotation",
      idempotent: "override",
      openWorld: "override",
    });
  });

  it("turns a stated destructive into false when the user settles that the tool does not write", () => {
    const readOnly = inferCapabilities("x", { destructiveHint: true }, { readOnly: true });
    expect(readOnly).toMatchObject({ readOnly: true, writes: false, destructive: false });
    expect(readOnly.decidedBy.destructive).toBe("override");
    const noWrites = inferCapabilities("x", { readOnlyHint: false, destructiveHint: true }, { writes: false });
    expect(noWrites).toMatchObject({ readOnly: false, writes: false, destructive: false });
    expect(noWrites.decidedBy.destructive).toBe("override");
  });

  it("ignores hints that are not booleans (annotations arrive from the wire)", () => {
    const loose = {
      readOnlyHint: "false",
      destructiveHint: 1,
      idempotentHint: null,
      openWorldHint: "yes",
    } as unknown as ToolAnnotationHints;
    expect(inferCapabilities("get_x", loose)).toEqual({
      readOnly: true,
      writes: false,
      decidedBy: { readOnly: "name", writes: "name" },
    });
  });
});
