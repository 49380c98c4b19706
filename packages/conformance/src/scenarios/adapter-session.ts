import { createEngine2026, MODERN_REVISION } from "@mcp-tool-adapter/engine-2026";
import { MCPToolAdapter, type MCPToolAdapterOptions } from "mcp-tool-adapter";

/**
 * The revision the suite asks this run to speak: `--spec-version` reaches the client as
 * MCP_CONFORMANCE_PROTOCOL_VERSION (the 0.2 suite sets it; 0.1.16 never does).
 */
export function requestedRevision(): string | undefined {
  return process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
}

/**
 * An adapter on the suite's test server (streamable HTTP), connected, its tools discovered. When
 * the suite asks for 2026-07-28 it runs on engine-2026 pinned to that revision (the suite's test
 * servers speak only it); otherwise, or with `engine: "default"`, on the default engine as a 2025 client.
 */
export async function withAdapter(
  serverUrl: string,
  options: MCPToolAdapterOptions,
  use: (adapter: MCPToolAdapter) => Promise<void>,
  { engine = "requested" }: { engine?: "requested" | "default" } = {},
): Promise<void> {
  const modern = engine === "requested" && requestedRevision() === MODERN_REVISION;
  const adapter = new MCPToolAdapter(
    {
      name: "conformance",
      transport: "streamable-http",
      url: serverUrl,
      ...(modern ? { protocol: MODERN_REVISION } : {}),
    },
    modern ? { ...options, engine: createEngine2026() } : options,
  );
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
