import type { MultiServerMCPClient } from "@langchain/mcp-adapters";
import type { DynamicStructuredTool } from "@langchain/core/tools";
import { stdioEnvironment, type LoadPeerClient, type PeerTarget } from "../peer-client.js";

const SERVER = "bench";

function connectionFor(target: PeerTarget) {
  if (target.kind === "streamable-http") return { transport: "http" as const, url: target.url };
  const env = stdioEnvironment(target);
  return {
    transport: "stdio" as const,
    command: target.command,
    args: [...target.args],
    stderr: "ignore" as const,
    ...(env === undefined ? {} : { env }),
  };
}

/**
 * `@langchain/mcp-adapters`: its documented path is `getTools()` and then `tool.invoke(args)`
 * (LangChain has no call-by-name without the tool objects), so this side always lists first.
 */
export const loadLangChainClient: LoadPeerClient = async () => {
  const { MultiServerMCPClient: Client } = await import("@langchain/mcp-adapters");
  return (target) => {
    let client: MultiServerMCPClient | undefined;
    let tools = new Map<string, DynamicStructuredTool>();
    // The listing connect() did, handed to the first listAll() (getTools() lists on first use only).
    let listedOnConnect: number | undefined;
    const connected = (): MultiServerMCPClient => {
      if (client === undefined) throw new Error("LangChain: connect() first");
      return client;
    };
    const listed = async (): Promise<DynamicStructuredTool[]> => {
      const all = await connected().getTools();
      tools = new Map(all.map((tool) => [tool.name, tool]));
      return all;
    };
    return {
      async connect() {
        client = new Client({
          mcpServers: { [SERVER]: connectionFor(target) },
          prefixToolNameWithServerName: false,
          useStandardContentBlocks: true,
        });
        listedOnConnect = (await listed()).length;
      },
      async call(name, args) {
        const tool = tools.get(name);
        if (tool === undefined) throw new Error(`LangChain: no tool "${name}" was listed`);
        await tool.invoke(args);
      },
      async listAll() {
        const count = listedOnConnect ?? (await listed()).length;
        listedOnConnect = undefined;
        return count;
      },
      async close() {
        await client?.close();
        client = undefined;
      },
    };
  };
};
