import type { MCPClient } from "@ai-sdk/mcp";
import { failedCall, stdioEnvironment, type LoadPeerClient } from "../peer-client.js";

/**
 * The AI SDK's MCP client (`@ai-sdk/mcp`, the successor of `ai`'s `experimental_createMCPClient`):
 * `createMCPClient({ transport })`, then `callTool({ name, arguments })`.
 */
export const loadAISDKClient: LoadPeerClient = async (transport) => {
  const { createMCPClient } = await import("@ai-sdk/mcp");
  // Its stdio transport is a separate entry point, imported only by those who use it.
  const stdio = transport === "stdio" ? await import("@ai-sdk/mcp/mcp-stdio") : undefined;
  return (target) => {
    let client: MCPClient | undefined;
    const connected = (): MCPClient => {
      if (client === undefined) throw new Error("AI SDK: connect() first");
      return client;
    };
    return {
      async connect() {
        const env = target.kind === "stdio" ? stdioEnvironment(target) : undefined;
        client = await createMCPClient({
          transport:
            target.kind === "stdio"
              ? new (requireStdio(stdio).StdioMCPTransport)({
                  command: target.command,
                  args: [...target.args],
                  stderr: "ignore",
                  ...(env === undefined ? {} : { env }),
                })
              : { type: "http", url: target.url },
        });
      },
      async call(tool, args) {
        const result = await connected().callTool({ name: tool, arguments: args });
        if (result.isError === true) throw failedCall("AI SDK", tool, "error result");
      },
      async listAll() {
        return Object.keys(await connected().tools()).length;
      },
      async close() {
        await client?.close();
        client = undefined;
      },
    };
  };
};

function requireStdio<T>(loaded: T | undefined): T {
  if (loaded === undefined) throw new Error("AI SDK: loaded for HTTP, given a stdio target");
  return loaded;
}
