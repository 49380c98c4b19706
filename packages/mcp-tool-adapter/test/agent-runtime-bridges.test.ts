import { createAISDKTools } from "@mcp-tool-adapter/ai-sdk";
import { createLangChainTools } from "@mcp-tool-adapter/langchain";
import { createOpenAIAgentsTools } from "@mcp-tool-adapter/openai-agents";
import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPServerSet } from "../src/index.js";

const nodeMajor = Number(process.versions.node.split(".")[0]);

// The bridges take an MCPServerSet as it is (through its registry); they cannot depend on this
// package themselves, so the check that the two fit lives here.
describe("an MCPServerSet as the source of every agent-runtime bridge", () => {
  const servers = new MCPServerSet({ everything: { transport: "stdio", ...everythingStdioServer() } });

  beforeAll(async () => {
    expect((await servers.connect()).ok).toBe(true);
  });

  afterAll(async () => {
    await servers.close();
    await expectNoLeakedProcesses();
  });

  it("gives LangChain its tools, and a call goes through to the server", async () => {
    const tools = createLangChainTools(servers);
    const echo = tools.find((tool) => tool.name === "everything__echo");
    expect(echo).toBeDefined();
    expect(await echo!.invoke({ message: "from a server set" })).toBe("Echo: from a server set");
  });

  it.skipIf(nodeMajor < 22)("gives the AI SDK and the OpenAI Agents SDK its tools", () => {
    expect(Object.keys(createAISDKTools(servers))).toContain("everything__echo");
    expect(createOpenAIAgentsTools(servers).map((tool) => tool.name)).toContain("everything__get_sum");
  });
});
