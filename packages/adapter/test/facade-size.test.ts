import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Issue 31: the facade composes the layers and delegates; new work lands in a layer, not here.
// docs/architecture.md says which file takes a notification handler, a call step or an engine.
const FACADE = new URL("../src/mcp-tool-adapter.ts", import.meta.url);
const MAX_LINES = 350;

describe("the MCPToolAdapter facade", () => {
  it(`stays at or under ${MAX_LINES} lines`, () => {
    const lines = readFileSync(FACADE, "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES);
  });
});
