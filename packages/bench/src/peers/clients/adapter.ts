import type { MCPServerConfig, MCPToolAdapter } from "mcp-tool-adapter";
import { failedCall, type LoadPeerClient, type PeerClientFactory, type PeerTarget } from "../peer-client.js";

/** Exactly the config a user writes for the umbrella package. */
export function configFor(target: PeerTarget): MCPServerConfig {
  return target.kind === "stdio"
    ? {
        name: "bench",
        transport: "stdio",
        command: target.command,
        args: [...target.args],
        ...(target.env === undefined ? {} : { env: { ...target.env } }),
      }
    : { name: "bench", transport: "streamable-http", url: target.url };
}

/**
 * Our side, through the umbrella's public API only: `new MCPToolAdapter(config)`, `connect()`,
 * `invoke()`. With `discoverFirst`, `discoverTools()` runs once after connecting, as an agent
 * host that registers the tools does; without it the first `invoke` lists the tools itself.
 */
function loadAdapter(discoverFirst: boolean, engine?: "sdk-v1"): LoadPeerClient {
  return async (): Promise<PeerClientFactory> => {
    const { MCPToolAdapter: Adapter } = await import("mcp-tool-adapter");
    return (target) => {
      let adapter: MCPToolAdapter | undefined;
      // The discovery connect() did, handed to the first listAll() so the listing is not done twice.
      let discoveredOnConnect: number | undefined;
      const connected = (): MCPToolAdapter => {
        if (adapter === undefined) throw new Error("mcp-tool-adapter: connect() first");
        return adapter;
      };
      return {
        async connect() {
          const next = new Adapter(configFor(target), engine === undefined ? {} : { engine });
          await next.connect();
          if (discoverFirst) discoveredOnConnect = (await next.discoverTools()).length;
          adapter = next;
        },
        async call(tool, args) {
          const result = await connected().invoke(tool, args);
          if (!result.success) throw failedCall("mcp-tool-adapter", tool, result.error ?? "no error message");
        },
        async listAll() {
          const count = discoveredOnConnect ?? (await connected().discoverTools()).length;
          discoveredOnConnect = undefined;
          return count;
        },
        async close() {
          await adapter?.disconnect();
          adapter = undefined;
        },
      };
    };
  };
}

export const loadAdapterClient = loadAdapter(false);
export const loadDiscoveredAdapterClient = loadAdapter(true);
/** Our side on the SDK 1.x Client engine: the adapter's overhead with the SDK's own protocol layer, for comparison with our default engine. */
export const loadSdkV1AdapterClient = loadAdapter(false, "sdk-v1");
