import { describe, expect, it } from "vitest";
import { inferCapabilities, type ToolAnnotationHints } from "../src/index.js";

/**
 * Real tool names and annotations, captured by listing the tools of
 * @modelcontextprotocol/server-everything, -filesystem and -memory 2026.8.31 over stdio
 * with the SDK Client. `byName` is what the spec's keyword rule alone says; `verdict` is
 * the combined policy with the annotations ("R" read-only, "W" writes, "-" neither).
 * Rows where the two differ show the annotations filling in or correcting the name rule.
 */
type Verdict = "R" | "W" | "-";
const captured: [server: string, name: string, annotations: ToolAnnotationHints, byName: Verdict, verdict: Verdict][] =
  [
    [
      "everything",
      "echo",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "-",
      "R",
    ],
    [
      "everything",
      "get-annotated-message",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "get-env",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "get-resource-links",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "get-resource-reference",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "get-structured-content",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "get-sum",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "get-tiny-image",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "everything",
      "gzip-file-as-resource",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      "-",
      "W",
    ],
    [
      "everything",
      "toggle-simulated-logging",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      "-",
      "W",
    ],
    // "updates" is not the keyword "update": keywords are whole words, plurals included.
    [
      "everything",
      "toggle-subscriber-updates",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      "-",
      "W",
    ],
    [
      "everything",
      "trigger-long-running-operation",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "-",
      "R",
    ],
    [
      "everything",
      "simulate-research-query",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      "-",
      "W",
    ],
    ["filesystem", "read_file", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "read_text_file", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "read_media_file", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "read_multiple_files", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    [
      "filesystem",
      "write_file",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      "W",
      "W",
    ],
    [
      "filesystem",
      "edit_file",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      "-",
      "W",
    ],
    [
      "filesystem",
      "create_directory",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "W",
      "W",
    ],
    ["filesystem", "list_directory", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "list_directory_with_sizes", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "directory_tree", { readOnlyHint: true, openWorldHint: false }, "-", "R"],
    [
      "filesystem",
      "move_file",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      "-",
      "W",
    ],
    ["filesystem", "search_files", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "get_file_info", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    ["filesystem", "list_allowed_directories", { readOnlyHint: true, openWorldHint: false }, "R", "R"],
    [
      "memory",
      "create_entities",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      "W",
      "W",
    ],
    [
      "memory",
      "create_relations",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      "W",
      "W",
    ],
    [
      "memory",
      "add_observations",
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      "-",
      "W",
    ],
    [
      "memory",
      "delete_entities",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      "W",
      "W",
    ],
    [
      "memory",
      "delete_observations",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      "W",
      "W",
    ],
    [
      "memory",
      "delete_relations",
      { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      "W",
      "W",
    ],
    [
      "memory",
      "read_graph",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "memory",
      "search_nodes",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "R",
      "R",
    ],
    [
      "memory",
      "open_nodes",
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      "-",
      "R",
    ],
  ];

function flags(verdict: Verdict): { readOnly: boolean; writes: boolean } {
  return { readOnly: verdict === "R", writes: verdict === "W" };
}

describe("tools of the real MCP reference servers", () => {
  it("covers at least 30 real tools from all three servers", () => {
    expect(captured.length).toBeGreaterThanOrEqual(30);
    expect(new Set(captured.map(([server]) => server))).toEqual(new Set(["everything", "filesystem", "memory"]));
  });

  it.each(captured)("%s %s: the name rule alone", (_server, name, _annotations, byName) => {
    const capability = inferCapabilities(name);
    expect({ readOnly: capability.readOnly, writes: capability.writes }).toEqual(flags(byName));
    const source = byName === "-" ? "default" : "name";
    expect(capability.decidedBy).toEqual({ readOnly: source, writes: source });
  });

  it.each(captured)("%s %s: name and annotations combined", (_server, name, annotations, _byName, verdict) => {
    const capability = inferCapabilities(name, annotations);
    expect({ readOnly: capability.readOnly, writes: capability.writes }).toEqual(flags(verdict));
    // Every captured tool states readOnlyHint, so the annotation decides both fields.
    expect(capability.decidedBy.readOnly).toBe("annotation");
    expect(capability.decidedBy.writes).toBe("annotation");
    // Only stated hints are reported; filesystem's read tools omit destructive/idempotent.
    expect(capability.destructive).toBe(annotations.destructiveHint);
    expect(capability.idempotent).toBe(annotations.idempotentHint);
    expect(capability.openWorld).toBe(annotations.openWorldHint);
    expect("destructive" in capability).toBe(annotations.destructiveHint !== undefined);
    expect(capability.decidedBy.destructive).toBe(annotations.destructiveHint === undefined ? undefined : "annotation");
  });
});
