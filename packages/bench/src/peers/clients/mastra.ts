import type { MCPClient } from "@mastra/mcp";
import type { LoadPeerClient, PeerTarget } from "../peer-client.js";

const SERVER = "bench";

/** Mastra's tools are called through their `execute`; the shape is all this side needs of them. */
interface ExecutableTool {
  execute?: (input: Record<string, unknown>, context?: unknown) => Promise<unknown>;
}

function definitionFor(target: PeerTarget) {
  return target.kind === "stdio"
    ? {
        command: target.command,
        args: [...target.args],
        stderr: "ignore" as const,
        ...(target.env === undefined ? {} : { env: { ...target.env } }),
      }
    : { url: new URL(target.url) };
}

/**
 * `@mastra/mcp`: `new MCPClient({ servers })`, `listTools()` (names are `server_tool`), then
 * `tool.execute(args)`: the path Mastra's docs give for handing MCP tools to an agent.
 */
export const loadMastraClient: LoadPeerClient = async () => {
  const { MCPClient: Client } = await import("@mastra/mcp");
  let instances = 0;
  return (target) => {
    let client: MCPClient | undefined;
    let tools: Record<string, ExecutableTool> = {};
    // The listing connect() did, handed to the first listAll().
    let listedOnConnect: number | undefined;
    const connected = (): MCPClient => {
      if (client === undefined) throw new Error("Mastra: connect() first");
      return client;
    };
    const listed = async (): Promise<number> => {
      tools = (await connected().listTools()) as Record<string, ExecutableTool>;
      return Object.keys(tools).length;
    };
    return {
      async connect() {
        instances += 1;
        // Mastra refuses a second client with an identical config unless it has its own id.
        client = new Client({ id: `bench-${instances}`, servers: { [SERVER]: definitionFor(target) } });
        listedOnConnect = await listed();
      },
      async call(name, args) {
        const execute = tools[`${SERVER}_${name}`]?.execute;
        if (execute === undefined) throw new Error(`Mastra: no tool "${SERVER}_${name}" was listed`);
        await execute(args, {});
      },
      async listAll() {
        const count = listedOnConnect ?? (await listed());
        listedOnConnect = undefined;
        return count;
      },
      async close() {
        await client?.disconnect();
        client = undefined;
      },
    };
  };
};
