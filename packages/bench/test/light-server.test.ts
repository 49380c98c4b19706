import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, describe, expect, it } from "vitest";
import { generatedTool } from "../src/servers/generated-tools.js";
import { typeScriptNodeArgs, workerPath } from "../src/workers/spawn-worker.js";

// The many-servers scenario's server: an SDK client no one here wrote must find it a whole MCP server.
describe("light-tools server", () => {
  let client: Client | undefined;

  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  async function connect(): Promise<Client> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...typeScriptNodeArgs(), workerPath("../servers/light-tools-server.ts"), "--tools=3"],
      stderr: "inherit",
    });
    client = new Client({ name: "light-server-test", version: "0.0.0" });
    await client.connect(transport);
    return client;
  }

  it("lists the generated tools, answers a call and refuses an unknown tool", async () => {
    const connected = await connect();
    const { tools } = await connected.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([0, 1, 2].map((index) => generatedTool(index).name));
    expect(tools[1]?.inputSchema).toEqual(generatedTool(1).inputSchema);

    const result = await connected.callTool({ name: tools[0]!.name, arguments: { query: "many servers" } });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ query: "many servers" }) }]);

    await expect(connected.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/no_such_tool not found/);
    await expect(connected.ping()).resolves.toEqual({});
  }, 60_000);
});
