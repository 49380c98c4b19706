import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { discoverInMemoryServer, type DiscoveredInMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIAgentsTools } from "../src/index.js";

// MCP Apps: the Agents SDK has no metadata field for function tools, so the tool's app is named
// on the tool object (`ui`), for the host; the model's request carries only the SDK's own fields.
setTracingDisabled(true);
const readOnly = { readOnlyHint: true };
const UI = { resourceUri: "ui://chart/app.html", visibility: ["model", "app"] };
const nodeMajor = Number(process.versions.node.split(".")[0]);

describe.skipIf(nodeMajor < 22)("OpenAI Agents tools of MCP Apps", () => {
  let apps: DiscoveredInMemoryServer | undefined;
  afterEach(async () => {
    await apps?.close();
  });

  it("carry the tool's app as `ui`, which the model's request leaves out; app-only tools stay out", async () => {
    apps = await discoverInMemoryServer("apps", {
      tools: [
        { name: "show_chart", annotations: readOnly, _meta: { ui: { resourceUri: UI.resourceUri } } },
        { name: "poll_stats", annotations: readOnly, _meta: { ui: { visibility: ["app"] } } },
        { name: "echo", annotations: readOnly },
      ],
    });
    const tools = createOpenAIAgentsTools(apps.adapter);
    expect(tools.map((tool) => [tool.name, tool.ui])).toEqual([
      ["apps__show_chart", UI],
      ["apps__echo", undefined],
    ]);

    const model = new ScriptedModel([
      [functionCall("apps__show_chart", {}, { callId: "call-1" })],
      [assistantMessage("done")],
    ]);
    await run(new Agent({ name: "charts", model, tools }), "chart");
    expect(apps.server.callCount).toBe(1);
    const sent = JSON.stringify(model.calls[0]?.request.tools);
    expect(sent).toContain("apps__show_chart");
    expect(sent).not.toContain("ui://chart/app.html");
  });
});
