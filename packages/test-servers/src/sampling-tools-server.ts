import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type {
  CreateMessageRequestParamsWithTools,
  CreateMessageResultWithTools,
  SamplingMessage,
  SamplingMessageContentBlock,
  Tool,
  ToolResultContent,
  ToolUseContent,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** An in-process SDK 1.x server that samples with tools (MCP 2025-11-25, SEP-1577). */
export interface SamplingToolsServer {
  /** The client end of an in-memory pair linked to the server. */
  readonly clientTransport: Transport;
  /** Every `sampling/createMessage` the server sent, with the answer it got, in order. */
  readonly rounds: { request: CreateMessageRequestParamsWithTools; answer: CreateMessageResultWithTools }[];
  close(): Promise<void>;
}

/** The one tool the server lets the model use while it samples. */
export const WEATHER_SAMPLING_TOOL: Tool = {
  name: "get_weather",
  description: "The current weather in a city",
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const MAX_ROUNDS = 5;

/**
 * One tool, `ask-weather-agent` `{ question }`: an agent loop run by the server. It samples with
 * the `get_weather` tool; while the answer asks for tool calls (`stopReason: "toolUse"`) it runs
 * them itself (`sunny, 21°C in <city>`, an error result for a call without a city) and samples
 * again with the conversation so far plus their `tool_result`s, at most 5 rounds. The tool's
 * result is the model's final text.
 */
export async function startSamplingToolsServer(): Promise<SamplingToolsServer> {
  const rounds: SamplingToolsServer["rounds"] = [];
  const server = new McpServer({ name: "sampling-tools", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "ask-weather-agent",
    {
      description: "Answers a weather question with the client's model and a weather tool",
      inputSchema: { question: z.string() },
    },
    async ({ question }) => {
      const messages: SamplingMessage[] = [{ role: "user", content: { type: "text", text: question } }];
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const request: CreateMessageRequestParamsWithTools = {
          messages: [...messages],
          maxTokens: 200,
          systemPrompt: "You answer weather questions.",
          tools: [WEATHER_SAMPLING_TOOL],
          toolChoice: { mode: "auto" },
        };
        const answer = await server.server.createMessage(request);
        rounds.push({ request, answer });
        const blocks: SamplingMessageContentBlock[] = Array.isArray(answer.content) ? answer.content : [answer.content];
        const toolUses = blocks.filter((block): block is ToolUseContent => block.type === "tool_use");
        if (answer.stopReason !== "toolUse" || toolUses.length === 0) {
          const text = blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
          return { content: [{ type: "text", text }] };
        }
        messages.push({ role: "assistant", content: toolUses });
        messages.push({ role: "user", content: toolUses.map(runWeatherTool) });
      }
      return { content: [{ type: "text", text: `no final answer after ${MAX_ROUNDS} rounds` }], isError: true };
    },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  return { clientTransport, rounds, close: () => server.close() };
}

function runWeatherTool(toolUse: ToolUseContent): ToolResultContent {
  const city = toolUse.input.city;
  return typeof city === "string"
    ? { type: "tool_result", toolUseId: toolUse.id, content: [{ type: "text", text: `sunny, 21°C in ${city}` }] }
    : {
        type: "tool_result",
        toolUseId: toolUse.id,
        content: [{ type: "text", text: "city is required" }],
        isError: true,
      };
}
