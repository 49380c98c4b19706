import { readFile } from "node:fs/promises";
import { Agent, run, setTracingDisabled } from "@openai/agents";
import { functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { registerMemoryServer, type RegisteredMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { createToolSearch } from "@mcp-tool-adapter/tool-search";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIAgentsTools } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);
setTracingDisabled(true);

function offered(model: ScriptedModel, turn: number): string[] {
  return (model.calls[turn]?.request.tools ?? []).map((entry) => (entry as { name?: string }).name ?? "").sort();
}

describe.skipIf(nodeMajor < 22)("OpenAI Agents loop with tool search against a real server-memory", () => {
  const registry = new ToolRegistry();
  let memory: RegisteredMemoryServer;

  beforeAll(async () => {
    memory = await registerMemoryServer("openai-agents-search-", registry);
  });

  afterAll(async () => {
    await memory.close();
  });

  it("searches, loads and calls a tool it was not offered up front; a write reached so still needs approval", async () => {
    const search = createToolSearch(registry, { pinned: ["memory/read_graph"] });
    const tools = createOpenAIAgentsTools(search.catalog, { isEnabled: search.isActive, approval: "destructive" });
    const createAda = { entities: [{ name: "Ada", entityType: "person", observations: ["found by search"] }] };
    const model = new ScriptedModel([
      [functionCall("tools__search", { query: "create entities" }, { callId: "c1" })],
      [
        functionCall(
          "tools__load",
          { names: ["memory__create_entities", "memory__delete_entities"] },
          { callId: "c2" },
        ),
      ],
      [functionCall("memory__create_entities", createAda, { callId: "c3" })],
      [functionCall("memory__delete_entities", { entityNames: ["Ada"] }, { callId: "c4" })],
    ]);
    const agent = new Agent({ name: "rememberer", model, tools });
    const result = await run(agent, "remember Ada");

    expect(offered(model, 0)).toEqual(["memory__read_graph", "tools__call", "tools__load", "tools__search"]);
    expect(offered(model, 2)).toEqual(expect.arrayContaining(["memory__create_entities", "memory__delete_entities"]));
    expect(await readFile(memory.memoryFile, "utf8")).toContain("found by search");
    // The destructive tool, loaded through search, interrupts the run for approval.
    expect(result.interruptions.map((item) => (item.rawItem as { name?: string }).name)).toEqual([
      "memory__delete_entities",
    ]);
    expect(await readFile(memory.memoryFile, "utf8")).toContain("Ada");
    search.close();
  });
});
