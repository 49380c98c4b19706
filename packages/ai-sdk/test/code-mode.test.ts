import { createCodeMode, type CodeMode } from "@mcp-tool-adapter/code-mode";
import { registerMemoryServer, type RegisteredMemoryServer } from "@mcp-tool-adapter/test-helpers";
import { generateText, stepCountIs, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAISDKTools } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);

type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;
const usage: GenerateResult["usage"] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

// Code mode's one tool is a registry tool: the bridge takes it as it takes any other.
describe.skipIf(nodeMajor < 22)("code mode's run-code tool in the AI SDK (real server-memory)", () => {
  let server: RegisteredMemoryServer;
  let codeMode: CodeMode;

  beforeAll(async () => {
    server = await registerMemoryServer("ai-sdk-code-mode-");
    codeMode = await createCodeMode(server.registry);
  });

  afterAll(async () => {
    codeMode.close();
    await server.close();
  });

  it("runs a program the scripted model wrote and gives the model its return value", async () => {
    const code = `
      await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["programmer"] }] });
      const found: any = await memory.search_nodes({ query: "Ada" });
      return { matches: JSON.stringify(found).split('"name":"Ada"').length - 1 };
    `;
    const model = new MockLanguageModelV4({
      doGenerate: [
        {
          content: [
            { type: "tool-call", toolCallId: "call-1", toolName: "code__run", input: JSON.stringify({ code }) },
          ],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
          usage,
          warnings: [],
        },
        {
          content: [{ type: "text", text: "done" }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        },
      ],
    });
    // Approval is the adapter's, per call inside the program; the bridge's would ask for the whole program.
    const tools = createAISDKTools(codeMode.registry, { approval: "never" });
    expect(Object.keys(tools)).toEqual(["code__run"]);
    expect(tools["code__run"]?.description).toContain("declare const memory: {");
    const result = await generateText({
      model: model as LanguageModel,
      tools,
      prompt: "count Ada",
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("done");
    const shown = (model.doGenerateCalls[1]?.prompt ?? [])
      .filter((message) => message.role === "tool")
      .flatMap((message) => message.content);
    expect(JSON.stringify(shown)).toContain('\\"matches\\": 1');
  });
});
