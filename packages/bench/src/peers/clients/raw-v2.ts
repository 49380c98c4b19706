import type { Client, Transport } from "@modelcontextprotocol/client";
import type { EngineEra } from "../engine-sides.js";
import { failedCall, sdkHttpUrl, sdkStdioOptions, type LoadPeerClient, type PeerTarget } from "../peer-client.js";

const LABEL = "raw v2 client";

/**
 * `@modelcontextprotocol/client`'s Client with the SDK v2 transport the target needs. In the
 * engine comparison it speaks one era (pinned to 2026-07-28, or the 2025 handshake) and lists once
 * after connecting; in the peer comparison (`era` undefined) it negotiates as its docs show and
 * calls without listing first, as the SDK 1.x baseline does.
 */
function loadRawV2(era: EngineEra | undefined): LoadPeerClient {
  return async (transport) => {
    const { Client: SdkClient } = await import("@modelcontextprotocol/client");
    // An SDK user imports the one transport they use; stdio is an entry point of its own.
    const transportFor = transport === "stdio" ? await loadStdioTransport() : await loadHttpTransport();
    return (target) => {
      let client: Client | undefined;
      const connected = (): Client => {
        if (client === undefined) throw new Error(`${LABEL}: connect() first`);
        return client;
      };
      return {
        async connect() {
          const next = new SdkClient(
            { name: "bench-raw-v2", version: "0.0.0" },
            {
              capabilities: {},
              ...(era === undefined
                ? {}
                : { versionNegotiation: era === "2025" ? { mode: "legacy" } : { mode: { pin: "2026-07-28" } } }),
            },
          );
          await next.connect(transportFor(target));
          // In the engine comparison it lists once, as the adapter sides there do after connecting:
          // then every side has the same messages on the wire and the same tool definitions in the
          // SDK's cache (which its callTool consults for output validation and, on 2026-07-28,
          // x-mcp-header mirroring).
          if (era !== undefined) await next.listTools();
          client = next;
        },
        async call(tool, args) {
          const result = await connected().callTool({ name: tool, arguments: args });
          if (result.isError === true) throw failedCall(LABEL, tool, "error result");
        },
        async listAll() {
          // Without a cursor the v2 Client walks every page itself.
          return (await connected().listTools()).tools.length;
        },
        async close() {
          await client?.close();
          client = undefined;
        },
      };
    };
  };
}

type TransportFactory = (target: PeerTarget) => Transport;

async function loadStdioTransport(): Promise<TransportFactory> {
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  return (target) => new StdioClientTransport(sdkStdioOptions(LABEL, target));
}

async function loadHttpTransport(): Promise<TransportFactory> {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  return (target) => new StreamableHTTPClientTransport(sdkHttpUrl(LABEL, target));
}

export const loadRawV2Client = loadRawV2("2026-07-28");
export const loadRawV2LegacyClient = loadRawV2("2025");
/** The peer comparison's second raw side (issue 36): the v2 Client as a user of a 2025 server runs it. */
export const loadRawV2PeerClient = loadRawV2(undefined);
