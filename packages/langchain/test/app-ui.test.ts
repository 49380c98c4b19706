import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { discoverInMemoryServer, type DiscoveredInMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { createLangChainTools } from "../src/index.js";

// MCP Apps: a tool's app is named in the LangChain tool's own metadata (`metadata.ui`), which
// LangChain hands to callbacks with every run of the tool: where a host rendering the run finds it.
const readOnly = { readOnlyHint: true };
const UI = { resourceUri: "ui://chart/app.html", visibility: ["model", "app"] };

/** Records the metadata LangChain gives callbacks when a tool starts. */
class ToolStarts extends BaseCallbackHandler {
  name = "tool-starts";
  readonly metadata: unknown[] = [];
  override handleToolStart(
    _tool: unknown,
    _input: string,
    _runId: string,
    _parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    this.metadata.push(metadata);
  }
}

describe("LangChain tools of MCP Apps", () => {
  let apps: DiscoveredInMemoryServer | undefined;
  afterEach(async () => {
    await apps?.close();
  });

  it("carry the tool's app in their metadata, seen by callbacks when the tool runs", async () => {
    apps = await discoverInMemoryServer("apps", {
      tools: [
        { name: "show_chart", annotations: readOnly, _meta: { ui: { resourceUri: UI.resourceUri } } },
        { name: "echo", annotations: readOnly },
      ],
    });
    const [chart, echo] = createLangChainTools(apps.adapter);
    expect(chart?.metadata?.ui).toEqual(UI);
    expect(echo?.metadata).not.toHaveProperty("ui");

    const starts = new ToolStarts();
    await chart?.invoke({}, { callbacks: [starts] });
    expect(starts.metadata).toEqual([expect.objectContaining({ registryName: "apps/show_chart", ui: UI })]);
  });
});
