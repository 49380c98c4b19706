import { parseToolUiMeta, ToolRegistry, TOOL_UI_METADATA_KEY } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { createLangChainTools } from "../src/index.js";

// MCP Apps: a tool its server meant for the app alone stays out of the agent's tools.
describe("app-only tools", () => {
  it("never become LangChain tools; a tool with a UI the model may see does", () => {
    const registry = new ToolRegistry();
    const tool = (name: string, meta: unknown) => ({
      name,
      description: name,
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "mcp",
      sourceMetadata: { [TOOL_UI_METADATA_KEY]: parseToolUiMeta(meta) },
      checkpointable: false,
      handler: () => ({ success: true }),
    });
    registry.register("apps", tool("show_chart", { ui: { resourceUri: "ui://chart/app.html" } }));
    registry.register("apps", tool("poll_stats", { ui: { visibility: ["app"] } }));
    expect(createLangChainTools(registry).map((entry) => entry.name)).toEqual(["apps__show_chart"]);
  });
});
