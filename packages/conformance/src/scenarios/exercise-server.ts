import type { MCPToolAdapter, MCPToolDescriptor } from "mcp-tool-adapter";
import { withAdapter } from "./adapter-session.js";

/** What the suite hands a scenario that names the calls to make (SEP-2243's encoding cases). */
interface CallsContext {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

/**
 * Uses everything the server offers, as a host would: calls each tool the adapter kept (with the
 * scenario's arguments when it names them, else a placeholder for each required field), reads each
 * resource, gets each prompt. The SEP-2243 scenarios check the headers of those requests, and that
 * tools with a malformed `x-mcp-header` were dropped from the list instead of called.
 */
export function exerciseServer(serverUrl: string): Promise<void> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as CallsContext;
  return withAdapter(serverUrl, {}, async (adapter) => {
    const named = context.toolCalls ?? [];
    for (const tool of adapter.discoveredTools) {
      const calls = named.filter((call) => call.name === tool.name);
      for (const args of calls.length > 0 ? calls.map((call) => call.arguments) : [placeholderArguments(tool)]) {
        const result = await adapter.invoke(tool.name, args);
        if (!result.success) throw new Error(`${tool.name} failed: ${result.errorKind ?? ""} ${result.error ?? ""}`);
      }
    }
    await readEverything(adapter);
  });
}

async function readEverything(adapter: MCPToolAdapter): Promise<void> {
  const capabilities = adapter.serverCapabilities;
  if (capabilities?.resources !== undefined) {
    for (const resource of await adapter.listResources()) {
      const read = await adapter.readResource(resource.uri);
      if (!read.success) throw new Error(`reading ${resource.uri} failed: ${read.error}`);
    }
  }
  if (capabilities?.prompts !== undefined) {
    for (const prompt of await adapter.listPrompts()) {
      const args = Object.fromEntries((prompt.arguments ?? []).map((argument) => [argument.name, "x"]));
      const got = await adapter.getPrompt(prompt.name, args);
      if (!got.success) throw new Error(`getting prompt ${prompt.name} failed: ${got.error}`);
    }
  }
}

/** A value of the declared type for each required property (the test servers ignore the values). */
function placeholderArguments(tool: MCPToolDescriptor): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const placeholders: Record<string, unknown> = {
    string: "x",
    number: 1,
    integer: 1,
    boolean: true,
    object: {},
    array: [],
  };
  return Object.fromEntries(
    (schema.required ?? []).map((name) => {
      const type = schema.properties?.[name]?.type;
      return [name, typeof type === "string" ? (placeholders[type] ?? "x") : "x"];
    }),
  );
}
