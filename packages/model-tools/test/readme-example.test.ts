import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { expect, it } from "vitest";
import { createModelToolSet, handleToolCall, toOpenAITools, type ProviderToolCall } from "../src/index.js";

it("runs the README example as written", async () => {
  const registry = new ToolRegistry();
  registry.replaceNamespace("memory", [
    {
      name: "read_graph",
      description: "Read the whole knowledge graph",
      inputSchema: { type: "object", properties: {} },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: () => ({ success: true, data: { content: [{ type: "text", text: '{"entities":[]}' }] } }),
    },
  ]);
  const toolSet = createModelToolSet(registry);
  const tools = toOpenAITools(toolSet);
  expect(tools).toEqual([
    {
      type: "function",
      function: {
        name: "memory__read_graph",
        description: "Read the whole knowledge graph",
        parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
        strict: true,
      },
    },
  ]);
  const call: ProviderToolCall = { id: "call_1", name: "memory__read_graph", arguments: "{}" };
  const message = await handleToolCall(toolSet, call, { format: "openai-chat" });
  expect(message).toEqual({ role: "tool", tool_call_id: "call_1", content: '{"entities":[]}' });
});
