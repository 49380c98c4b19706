import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { failedCall, sdkHttpUrl, sdkStdioOptions, type LoadPeerClient, type PeerTarget } from "../peer-client.js";

const LABEL = "raw SDK client";

/** The baseline: `@modelcontextprotocol/sdk`'s Client with the SDK transport the target needs. */
export const loadRawClient: LoadPeerClient = async (transport) => {
  const { Client: SdkClient } = await import("@modelcontextprotocol/sdk/client/index.js");
  // An SDK user imports the one transport they use.
  const transportFor = transport === "stdio" ? await loadStdioTransport() : await loadHttpTransport();
  return (target) => {
    let client: Client | undefined;
    const connected = (): Client => {
      if (client === undefined) throw new Error(`${LABEL}: connect() first`);
      return client;
    };
    return {
      async connect() {
        const next = new SdkClient({ name: "bench-raw-sdk", version: "0.0.0" }, { capabilities: {} });
        await next.connect(transportFor(target));
        client = next;
      },
      async call(tool, args) {
        const result = await connected().callTool({ name: tool, arguments: args });
        if (result.isError === true) throw failedCall(LABEL, tool, "error result");
      },
      async listAll() {
        let count = 0;
        let cursor: string | undefined;
        do {
          const page = await connected().listTools(cursor === undefined ? {} : { cursor });
          count += page.tools.length;
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return count;
      },
      async close() {
        await client?.close();
        client = undefined;
      },
    };
  };
};

type TransportFactory = (target: PeerTarget) => Transport;

async function loadStdioTransport(): Promise<TransportFactory> {
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  return (target) => new StdioClientTransport(sdkStdioOptions(LABEL, target));
}

async function loadHttpTransport(): Promise<TransportFactory> {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  return (target) => new StreamableHTTPClientTransport(sdkHttpUrl(LABEL, target));
}
