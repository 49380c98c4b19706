import { discoverInMemoryServer, type DiscoveredInMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { createAISDKTools } from "../src/index.js";

// MCP Apps: a tool's app travels where the AI SDK's own MCP client puts it (`metadata.app`), and
// from there onto the run's tool calls as `toolMetadata`, where a host rendering the run finds it.
const readOnly = { readOnlyHint: true };
const APP = { resourceUri: "ui://chart/app.html", visibility: ["model", "app"], mimeType: "text/html;profile=mcp-app" };

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const step = (content: GenerateResult["content"], unified: "tool-calls" | "stop"): GenerateResult => ({
  content,
  finishReason: { unified, raw: unified },
  usage,
  warnings: [],
});

describe("AI SDK tools of MCP Apps", () => {
  let apps: DiscoveredInMemoryServer | undefined;
  afterEach(async () => {
    await apps?.close();
  });

  it("carry the tool's app in their metadata and the run's tool calls; app-only tools stay out", async () => {
    apps = await discoverInMemoryServer("apps", {
      tools: [
        { name: "show_chart", annotations: readOnly, _meta: { ui: { resourceUri: APP.resourceUri } } },
        { name: "poll_stats", annotations: readOnly, _meta: { ui: { visibility: ["app"] } } },
        { name: "echo", annotations: readOnly },
      ],
    });
    const tools = createAISDKTools(apps.adapter);
    expect(Object.keys(tools)).toEqual(["apps__show_chart", "apps__echo"]);
    expect(tools.apps__show_chart?.metadata).toEqual({ registryName: "apps/show_chart", app: APP });
    expect(tools.apps__echo?.metadata).toEqual({ registryName: "apps/echo" });

    const model = new MockLanguageModelV4({
      doGenerate: [
        step([{ type: "tool-call", toolCallId: "call-1", toolName: "apps__show_chart", input: "{}" }], "tool-calls"),
        step([{ type: "text", text: "done" }], "stop"),
      ],
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools,
      prompt: "chart",
      stopWhen: stepCountIs(3),
    });
    expect(result.steps[0]?.toolCalls[0]?.toolMetadata).toEqual({ registryName: "apps/show_chart", app: APP });
    expect(result.steps[0]?.toolResults[0]?.toolMetadata).toEqual({ registryName: "apps/show_chart", app: APP });
  });
});
