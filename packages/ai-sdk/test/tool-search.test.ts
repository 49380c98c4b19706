import { readFile } from "node:fs/promises";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  registerEverythingServer,
  registerInMemoryServer,
  registerMemoryServer,
  type RegisteredInMemoryServer,
  type RegisteredMemoryServer,
  type RegisteredServer,
} from "@mcp-tool-adapter/test-helpers";
import { createToolSearch } from "@mcp-tool-adapter/tool-search";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeToolNames, createAISDKSearchTools, createAISDKTools } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
type CallOptions = MockLanguageModelV4["doGenerateCalls"][number];
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

let callNumber = 0;
function toolCallStep(toolName: string, input: Record<string, unknown>): GenerateResult {
  callNumber += 1;
  return {
    content: [{ type: "tool-call", toolCallId: `call-${callNumber}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

function textStep(text: string): GenerateResult {
  return { content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] };
}

/** The tool names the model was offered in one step. */
function offered(call: CallOptions | undefined): string[] {
  return (call?.tools ?? []).map((tool) => tool.name).sort();
}

/** The tool results the model read in one step's prompt (the newest last). */
function resultsIn(call: CallOptions | undefined): unknown[] {
  return (call?.prompt ?? []).filter((message) => message.role === "tool").flatMap((message) => message.content);
}

const createAda = { entities: [{ name: "Ada", entityType: "person", observations: ["found by search"] }] };

describe.skipIf(nodeMajor < 22)("AI SDK agent loop with tool search against real servers", () => {
  const registry = new ToolRegistry();
  let memory: RegisteredMemoryServer;
  let everything: RegisteredServer;

  beforeAll(async () => {
    [memory, everything] = await Promise.all([
      registerMemoryServer("ai-sdk-search-", registry),
      registerEverythingServer(registry),
    ]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([memory.close(), everything.close()]);
  });

  async function run(steps: GenerateResult[], approval: "writes" | "never") {
    const search = createToolSearch(registry, { pinned: ["memory/read_graph"] });
    const tools = createAISDKTools(search.catalog, { approval });
    const model = new MockLanguageModelV4({ doGenerate: steps });
    const result = await generateText({
      model: model as LanguageModel,
      tools,
      prepareStep: () => ({ activeTools: activeToolNames(tools, search.isActive) }),
      prompt: "remember Ada",
      stopWhen: stepCountIs(6),
    });
    search.close();
    return { model, result };
  }

  it("searches, loads and then calls a tool it was not given up front", async () => {
    const { model, result } = await run(
      [
        toolCallStep("tools__search", { query: "create entities in the knowledge graph" }),
        toolCallStep("tools__load", { names: ["memory__create_entities"] }),
        toolCallStep("memory__create_entities", createAda),
        textStep("remembered"),
      ],
      "never",
    );
    expect(result.text).toBe("remembered");
    const [first, second, third] = model.doGenerateCalls;
    expect(offered(first)).toEqual(["memory__read_graph", "tools__call", "tools__load", "tools__search"]);
    expect(JSON.stringify(resultsIn(second))).toContain("memory__create_entities");
    expect(offered(third)).toContain("memory__create_entities");
    expect(offered(third)).not.toContain("everything__echo");
    expect(await readFile(memory.memoryFile, "utf8")).toContain("found by search");
  });

  it("asks for approval before a write tool reached through search runs, as for one sent up front", async () => {
    const { model, result } = await run(
      [
        toolCallStep("tools__search", { query: "delete entities" }),
        toolCallStep("tools__load", { names: ["memory__delete_entities"] }),
        toolCallStep("memory__delete_entities", { entityNames: ["Ada"] }),
      ],
      "writes",
    );
    expect(result.content).toContainEqual(
      expect.objectContaining({
        type: "tool-approval-request",
        toolCall: expect.objectContaining({ toolName: "memory__delete_entities" }) as unknown,
      }),
    );
    expect(model.doGenerateCalls).toHaveLength(3);
    expect(result.toolResults.map((part) => part.toolName)).not.toContain("memory__delete_entities");
  });

  it("asks for approval before the call meta-tool runs a tool", async () => {
    const { result } = await run(
      [toolCallStep("tools__call", { name: "memory__delete_entities", arguments: { entityNames: ["Ada"] } })],
      "writes",
    );
    expect(result.content).toContainEqual(expect.objectContaining({ type: "tool-approval-request" }));
    expect(await readFile(memory.memoryFile, "utf8")).toContain("Ada");
  });
});

describe.skipIf(nodeMajor < 22)("AI SDK agent loop: a tool added by list_changed mid-run", () => {
  let weather: RegisteredInMemoryServer;

  beforeAll(async () => {
    weather = await registerInMemoryServer("weather", {
      tools: [
        { name: "get_forecast", description: "Five-day forecast for a city.", annotations: { readOnlyHint: true } },
      ],
    });
  });

  afterAll(async () => {
    await weather.close();
  });

  it("is found by the next search and called through the call meta-tool", async () => {
    const search = createToolSearch(weather.registry);
    // Approval of the call meta-tool is the test above; here the run goes on by itself.
    const tools = createAISDKTools(search.catalog, { approval: "never" });
    const changed = new Promise<void>((resolve) => {
      const stop = weather.registry.subscribe(() => {
        stop();
        resolve();
      });
    });
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        step += 1;
        if (step === 1) return toolCallStep("tools__search", { query: "tide tables" });
        if (step === 2) {
          // The server adds a tool while the agent runs.
          await weather.server.addTool({
            name: "get_tides",
            description: "Tide tables for a harbour.",
            annotations: { readOnlyHint: true },
          });
          await changed;
          return toolCallStep("tools__search", { query: "tide tables" });
        }
        if (step === 3)
          return toolCallStep("tools__call", { name: "weather__get_tides", arguments: { harbour: "Brest" } });
        return textStep("done");
      },
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools,
      prepareStep: () => ({ activeTools: activeToolNames(tools, search.isActive) }),
      prompt: "tides in Brest?",
      stopWhen: stepCountIs(6),
    });
    const [, second, third, fourth] = model.doGenerateCalls;
    expect(JSON.stringify(resultsIn(second))).not.toContain("weather__get_tides");
    expect(JSON.stringify(resultsIn(third))).toContain("weather__get_tides");
    expect(JSON.stringify(resultsIn(fourth))).toContain("Brest");
    expect(result.text).toBe("done");
    search.close();
  });

  it("is loaded as a tool of its own and called by its name when the tools follow the catalog", async () => {
    const search = createToolSearch(weather.registry);
    const live = createAISDKSearchTools(search, { approval: "never" });
    const changed = new Promise<void>((resolve) => {
      const stop = weather.registry.subscribe(() => {
        stop();
        resolve();
      });
    });
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        step += 1;
        if (step === 1) {
          await weather.server.addTool({
            name: "get_moon_phase",
            description: "Moon phase for a date.",
            annotations: { readOnlyHint: true },
          });
          await changed;
          return toolCallStep("tools__search", { query: "moon phase" });
        }
        if (step === 2) return toolCallStep("tools__load", { names: ["weather__get_moon_phase"] });
        if (step === 3) return toolCallStep("weather__get_moon_phase", { date: "2026-12-24" });
        return textStep("done");
      },
    });
    const result = await generateText({
      model: model as LanguageModel,
      tools: live.tools,
      prepareStep: live.prepareStep,
      prompt: "moon on Christmas eve?",
      stopWhen: stepCountIs(6),
    });
    const [first, second, third, fourth] = model.doGenerateCalls;
    // Not there when the run started, so not offered before it was loaded.
    expect(offered(first)).not.toContain("weather__get_moon_phase");
    expect(JSON.stringify(resultsIn(second))).toContain("weather__get_moon_phase");
    expect(offered(third)).toContain("weather__get_moon_phase");
    // Called as its own tool (not through tools__call): the server's answer echoes the arguments.
    const calls = result.steps.flatMap((each) => each.toolCalls.map((call) => call.toolName));
    expect(calls).toEqual(["tools__search", "tools__load", "weather__get_moon_phase"]);
    expect(JSON.stringify(resultsIn(fourth))).toContain("2026-12-24");
    expect(result.text).toBe("done");
    live.close();
    search.close();
  });
});
