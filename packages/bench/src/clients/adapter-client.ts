import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPToolAdapter, type MCPServerConfig } from "mcp-tool-adapter";
import type { BenchClient, ServerTarget } from "./bench-client.js";

/** The adapter config for a target: exactly what a user would write for the umbrella package. */
export function adapterConfig(name: string, target: ServerTarget): MCPServerConfig {
  return target.kind === "stdio"
    ? {
        name,
        transport: "stdio",
        command: target.command,
        args: [...target.args],
        ...(target.env === undefined ? {} : { env: { ...target.env } }),
      }
    : { name, transport: "streamable-http", url: target.url };
}

/**
 * The measured side: the umbrella package's MCPToolAdapter with its default transports
 * (or, for in-process servers, a transport factory), used only through its public API.
 */
export function createAdapterClient(target: ServerTarget | (() => Promise<Transport>)): BenchClient {
  const adapter =
    typeof target === "function"
      ? new MCPToolAdapter({ name: "bench", transport: "stdio", command: "in-process" }, { transport: target })
      : new MCPToolAdapter(adapterConfig("bench", target));
  return {
    side: "adapter",
    connect: () => adapter.connect(),
    async discover() {
      return (await adapter.discoverTools()).length;
    },
    async call(tool, args) {
      const result = await adapter.invoke(tool, args);
      if (!result.success) throw new Error(`adapter: tool "${tool}" failed: ${result.error ?? "no error message"}`);
    },
    close: () => adapter.disconnect(),
  };
}
