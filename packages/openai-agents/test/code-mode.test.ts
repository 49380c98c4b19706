import { Agent, run, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents-core/testing";
import { createCodeMode, type CodeMode } from "@mcp-tool-adapter/code-mode";
import { registerMemoryServer, type RegisteredMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIAgentsTools } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);
setTracingDisabled(true);

// Code mode's one tool is a registry tool: the bridge takes it as it takes any other.
describe.skipIf(nodeMajor < 22)("code mode's run-code tool in the OpenAI Agents SDK (real server-memory)", () => {
  let server: RegisteredMemoryServer;
  let codeMode: CodeMode;

  beforeAll(async () => {
    server = await registerMemoryServer("openai-agents-code-mode-");
    codeMode = await createCodeMode(server.registry);
  });

  afterAll(async () => {
    codeMode.close();
    await server.close();
  });

  it("runs a program the scripted model wrote; a failed program is a tool result, not a crash", async () => {
    const code = `
      await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["programmer"] }] });
      const graph: any = await memory.read_graph();
      return JSON.stringify(graph).includes("programmer") ? "remembered" : "forgotten";
    `;
    const model = new ScriptedModel([
      [functionCall("code__run", { code }, { callId: "call-1" })],
      [functionCall("code__run", { code: "while (true) {}" }, { callId: "call-2" })],
      [assistantMessage("done")],
    ]);
    const tools = createOpenAIAgentsTools(codeMode.registry, { approval: "never" });
    const agent = new Agent({ name: "coder", model, tools });
    const result = await run(agent, "remember Ada");
    expect(result.finalOutput).toBe("done");
    const outputs = [1, 2].map((index) => {
      const input = model.calls[index]?.request.input;
      const items = Array.isArray(input) ? (input as { type: string; output?: unknown }[]) : [];
      return JSON.stringify(items.filter((item) => item.type === "function_call_result").at(-1)?.output);
    });
    expect(outputs[0]).toContain("remembered");
    expect(outputs[1]).toContain("cpu_time_limit");
  });
});
