import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  createTempDirectory,
  everythingStdioServer,
  expectNoLeakedProcesses,
  filesystemStdioServer,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createStdioTransport, type StdioTransport } from "../src/index.js";

const openClients: Client[] = [];
const tempDirectories: TempDirectory[] = [];

async function connect(transport: StdioTransport): Promise<Client> {
  const client = new Client({ name: "transport-stdio-test", version: "1.0.0" });
  openClients.push(client);
  await client.connect(transport, { timeout: 20_000 });
  return client;
}

afterEach(async () => {
  await Promise.all(openClients.splice(0).map((client) => client.close()));
  await Promise.all(tempDirectories.splice(0).map((directory) => directory.remove()));
  await expectNoLeakedProcesses();
});

describe("real npm servers over stdio", () => {
  it("server-everything: initializes, lists tools and echoes", async () => {
    const transport = createStdioTransport(everythingStdioServer(), { killGraceMs: 1000 });
    const client = await connect(transport);

    expect(client.getServerVersion()?.name).toMatch(/everything/);
    expect(transport.pid).toBeGreaterThan(0);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("echo");

    const result = await client.callTool({ name: "echo", arguments: { message: "hello over a real pipe" } });
    expect(result.content).toEqual([
      { type: "text", text: expect.stringContaining("hello over a real pipe") as unknown },
    ]);

    await client.close();
    // stdin EOF is enough for this server: it exits by itself, cleanly.
    expect(transport.exit).toEqual({ code: 0, signal: null });
  });

  it("server-filesystem: serves only the allowed directory", async () => {
    const directory = await createTempDirectory();
    tempDirectories.push(directory);
    await writeFile(join(directory.path, "note.txt"), "written by the test\n");
    const client = await connect(createStdioTransport(filesystemStdioServer([directory.path]), { killGraceMs: 1000 }));

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["read_text_file", "list_allowed_directories"]),
    );
    const read = await client.callTool({
      name: "read_text_file",
      arguments: { path: join(directory.path, "note.txt") },
    });
    expect(read.content).toEqual([{ type: "text", text: "written by the test\n" }]);

    const outside = await client.callTool({ name: "read_text_file", arguments: { path: "/etc/hostname" } });
    expect(outside.isError).toBe(true);
  });

  it("server-memory: keeps its graph in the MEMORY_FILE_PATH it was given", async () => {
    const directory = await createTempDirectory();
    tempDirectories.push(directory);
    const memoryFile = join(directory.path, "memory.jsonl");
    const client = await connect(createStdioTransport(memoryStdioServer(memoryFile), { killGraceMs: 1000 }));

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["create_entities", "read_graph"]));
    await client.callTool({
      name: "create_entities",
      arguments: {
        entities: [{ name: "transport-stdio", entityType: "package", observations: ["kills process groups"] }],
      },
    });
    const graph = await client.callTool({ name: "read_graph", arguments: {} });
    expect(JSON.stringify(graph)).toContain("kills process groups");
    expect(await readFile(memoryFile, "utf8")).toContain("transport-stdio");
  });
});
