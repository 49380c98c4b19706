import type { MCPServer } from "@openai/agents-core";
import { stdioEnvironment, type LoadPeerClient } from "../peer-client.js";

/** `@openai/agents-core`'s MCP servers: `connect()`, then `callTool(name, args)`. */
export const loadOpenAIAgentsClient: LoadPeerClient = async () => {
  const { MCPServerStdio, MCPServerStreamableHttp } = await import("@openai/agents-core");
  return (target) => {
    let server: MCPServer | undefined;
    const connected = (): MCPServer => {
      if (server === undefined) throw new Error("OpenAI Agents: connect() first");
      return server;
    };
    return {
      async connect() {
        const env = target.kind === "stdio" ? stdioEnvironment(target) : undefined;
        const next: MCPServer =
          target.kind === "stdio"
            ? new MCPServerStdio({
                name: "bench",
                command: target.command,
                args: [...target.args],
                ...(env === undefined ? {} : { env }),
              })
            : new MCPServerStreamableHttp({ name: "bench", url: target.url });
        await next.connect();
        server = next;
      },
      async call(tool, args) {
        await connected().callTool(tool, args);
      },
      async listAll() {
        return (await connected().listTools()).length;
      },
      async close() {
        await server?.close();
        server = undefined;
      },
    };
  };
};
