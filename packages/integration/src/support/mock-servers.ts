import { createInMemoryTestServer, type InMemoryTestServer, type TestTool } from "@mcp-tool-adapter/test-servers";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPToolAdapter, type MCPServerConfig } from "mcp-tool-adapter";
import { adapterOptionsOn } from "./engine.js";
import type { AdapterWorld } from "./world.js";

// The "mock transport" of the spec is a real SDK Transport: an InMemoryTransport linked to an
// in-process SDK server serving the tools a scenario names (optionally wrapped in a fault from
// @mcp-tool-adapter/test-servers). The adapter itself is never faked.

/** The config every mock-transport adapter uses; the command is never spawned (the transport is injected). */
export const MOCK_SERVER_CONFIG: MCPServerConfig = {
  name: "mock-server",
  transport: "stdio",
  command: "mock-mcp-server",
};

/** `count` plain tools named tool_0, tool_1, ... with a small object input schema. */
export function numberedTools(count: number): TestTool[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: `Mock tool number ${index}`,
    inputSchema: { type: "object", properties: { query: { type: "string" } } },
  }));
}

/** A tool that answers every call with a text content list. */
export function callableTool(name: string): TestTool {
  return {
    name,
    description: `Mock tool ${name}`,
    inputSchema: { type: "object" },
    handler: (args) => ({ content: [{ type: "text", text: `${name} ok: ${JSON.stringify(args)}` }] }),
  };
}

/** create_issue-like tool whose input schema requires `title` and `body` strings. */
export function schemaValidatedTool(name: string): TestTool {
  return {
    name,
    description: `Mock tool ${name} with a strict input schema`,
    inputSchema: {
      type: "object",
      properties: { title: { type: "string" }, body: { type: "string" } },
      required: ["title", "body"],
      additionalProperties: false,
    },
    handler: (args) => ({ content: [{ type: "text", text: `created: ${String(args.title)}` }] }),
  };
}

/** A tool whose result is an MCP error result (`isError: true`). */
export function failingTool(name: string): TestTool {
  return {
    name,
    description: `Mock tool ${name} that always reports a failure`,
    inputSchema: { type: "object" },
    handler: () => ({
      isError: true,
      content: [{ type: "text", text: `${name} failed: upstream rejected the request` }],
    }),
  };
}

/** A tool whose JSON-RPC result is a bare content list, as MCP 1.4.0-era servers answered. */
export function bareListTool(name: string): TestTool {
  return {
    name,
    description: `Mock tool ${name} answering with a bare content list`,
    inputSchema: { type: "object" },
    handler: () => [{ type: "text", text: `${name}: raw item` }],
  };
}

/** A tool that answers only when its call is cancelled (the client gave up or the session closed). */
export function neverAnsweringTool(name: string): TestTool {
  return {
    name,
    description: `Mock tool ${name} that never answers in time`,
    inputSchema: { type: "object" },
    handler: (_args, extra) =>
      new Promise((resolve) => {
        const answer = (): void => resolve({ content: [{ type: "text", text: `${name} gave up` }] });
        if (extra.signal.aborted) answer();
        else extra.signal.addEventListener("abort", answer, { once: true });
      }),
  };
}

export interface MockAdapterOptions {
  tools?: TestTool[];
  /** Wraps (or replaces) each transport the adapter asks for: the place to inject a fault. */
  transport?: (server: InMemoryTestServer) => () => Transport | Promise<Transport>;
  /** Connect before the scenario's When steps. */
  connect?: boolean;
}

/**
 * Builds an in-process server and an adapter reaching it through a transport factory, so the
 * adapter can disconnect and reconnect like it would to a real server. Both are cleaned up
 * after the scenario.
 */
export async function createMockAdapter(
  world: AdapterWorld,
  options: MockAdapterOptions = {},
): Promise<MCPToolAdapter> {
  const server = createInMemoryTestServer({ name: "mock-server", tools: options.tools ?? [] });
  world.onCleanup(() => server.close());
  const transport = options.transport?.(server) ?? (() => server.connect());
  const adapter = new MCPToolAdapter(MOCK_SERVER_CONFIG, adapterOptionsOn(world.engine, { transport }));
  world.onCleanup(() => adapter.disconnect());
  world.server = server;
  world.adapter = adapter;
  if (options.connect === true) await adapter.connect();
  return adapter;
}
