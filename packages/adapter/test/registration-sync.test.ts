import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { connectedHarness } from "./helpers.js";

// model-tools takes an adapter as a tool source and converts synchronously (the bridges'
// createXTools(adapter)): it relies on this contract of registerTools.
describe("registerTools on an adapter that has discovered its tools", () => {
  it("fills the namespace before it returns, not only when its promise settles", async () => {
    const { adapter } = await connectedHarness({ tools: [{ name: "echo" }, { name: "note" }] });
    try {
      await adapter.discoverTools();
      const registry = new ToolRegistry();
      const registering = adapter.registerTools(registry, "notes");
      expect(registry.list().map((tool) => tool.name)).toEqual(["notes/echo", "notes/note"]);
      await registering;
    } finally {
      await adapter.disconnect();
    }
  });
});
