import { ToolRegistry, type ToolCallResult, type ToolDefinition } from "@mcp-tool-adapter/registry";

export interface RecordedCall {
  tool: string;
  args: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** A real ToolRegistry with local tools that record how they were called. */
export function createNotesRegistry(): { registry: ToolRegistry; calls: RecordedCall[] } {
  const registry = new ToolRegistry();
  const calls: RecordedCall[] = [];
  const tool = (
    name: string,
    inputSchema: Record<string, unknown>,
    capabilities: ToolDefinition["capabilities"],
    answer: (args: Record<string, unknown>) => ToolCallResult,
  ): ToolDefinition => ({
    name,
    description: `The ${name} tool`,
    inputSchema,
    capabilities,
    source: "local",
    sourceMetadata: {},
    checkpointable: true,
    handler: (args, context) => {
      calls.push({ tool: name, args, signal: context.signal });
      return answer(args);
    },
  });
  registry.replaceNamespace("notes", [
    tool(
      "search",
      {
        type: "object",
        properties: { query: { type: "string", minLength: 1 }, limit: { type: "integer", minimum: 1 } },
        required: ["query"],
      },
      { readOnly: true, writes: false },
      (args) => ({ success: true, data: { content: [{ type: "text", text: `found ${String(args.query)}` }] } }),
    ),
    tool("delete.all", { type: "object" }, { readOnly: false, writes: true, destructive: true }, () => ({
      success: true,
      data: "deleted",
    })),
    tool(
      "append",
      { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      { readOnly: false, writes: true, destructive: false },
      () => ({ success: true, data: "ok" }),
    ),
    tool("mystery", { type: "object" }, { readOnly: false, writes: false }, () => ({
      success: false,
      errorKind: "server_error",
      error: "broken",
    })),
  ]);
  return { registry, calls };
}
