import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MCPElicitationRequest, MCPSamplingRequest } from "@mcp-tool-adapter/adapter";
import { MCPToolAdapter } from "../src/index.js";

// The client side of MCP tasks against real server-everything over stdio: its
// trigger-*-request-async tools ask us to run their elicitation / sampling as a task, then poll
// tasks/get and read tasks/result (about a second per poll).

function textOf(result: { data: { content: unknown[] } | null }): string {
  return (result.data?.content ?? []).map((item) => (item as { text?: string }).text ?? "").join("\n");
}

describe("server-everything runs our elicitation and sampling as tasks", () => {
  let adapter: MCPToolAdapter;
  const elicitations: MCPElicitationRequest[] = [];
  const samplings: MCPSamplingRequest[] = [];

  beforeAll(async () => {
    adapter = new MCPToolAdapter(
      { name: "everything", transport: "stdio", ...everythingStdioServer() },
      {
        connectTimeoutMs: 20_000,
        onElicitation: (request) => {
          elicitations.push(request);
          return { action: "accept", content: { name: "Ada", favoriteColor: "Green" } };
        },
        onSampling: (request) => {
          samplings.push(request);
          return { role: "assistant", content: { type: "text", text: "sampled in a task" }, model: "host-model" };
        },
      },
    );
    await adapter.connect();
  });
  afterAll(async () => {
    await adapter.disconnect();
    await expectNoLeakedProcesses();
  });

  it("offers the async tools: it saw our tasks capability", async () => {
    const names = (await adapter.discoverTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(["trigger-elicitation-request-async", "trigger-sampling-request-async"]),
    );
  });

  it("runs a sampling request as a task the server polls to its result", async () => {
    const result = await adapter.invoke("trigger-sampling-request-async", { prompt: "hello", maxTokens: 20 });
    expect(result.error).toBeNull();
    const text = textOf(result);
    expect(text).toContain("[COMPLETED] Async sampling completed!");
    expect(text).toContain("Task created:");
    expect(text).toContain("sampled in a task");
    // The handler saw the request without the server's task field.
    expect(samplings.at(-1)).toMatchObject({ maxTokens: 20, systemPrompt: "You are a helpful test server." });
    expect(samplings.at(-1)).not.toHaveProperty("task");
  });

  it("runs an elicitation as a task, its answer checked against the form", async () => {
    const result = await adapter.invoke("trigger-elicitation-request-async", {});
    expect(result.error).toBeNull();
    const text = textOf(result);
    expect(text).toContain("[COMPLETED] User provided the requested information!");
    expect(text).toContain("Ada");
    expect(elicitations.at(-1)).toMatchObject({ mode: "form", requestedSchema: { required: ["name"] } });
  });
});
