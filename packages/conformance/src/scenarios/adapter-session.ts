import { MCPToolAdapter, type MCPToolAdapterOptions } from "mcp-tool-adapter";

/** An adapter on the suite's test server (streamable HTTP), connected, its tools discovered. */
export async function withAdapter(
  serverUrl: string,
  options: MCPToolAdapterOptions,
  use: (adapter: MCPToolAdapter) => Promise<void>,
): Promise<void> {
  const adapter = new MCPToolAdapter({ name: "conformance", transport: "streamable-http", url: serverUrl }, options);
  try {
    await adapter.connect();
    await adapter.discoverTools();
    await use(adapter);
  } finally {
    await adapter.disconnect();
  }
}

/** Calls one tool and throws unless it succeeded. */
export async function invokeOrThrow(
  adapter: MCPToolAdapter,
  tool: string,
  args: Record<string, unknown>,
): Promise<void> {
  const result = await adapter.invoke(tool, args);
  if (!result.success) throw new Error(`${tool} failed: ${result.errorKind ?? ""} ${result.error ?? ""}`);
}
