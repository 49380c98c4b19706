import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI_BIN, GATEWAY_DIR, realUpstreams, type Upstreams } from "./fixtures.js";

// `mcp-tool-adapter serve --toolset <name>`, as a host starts it, seen by the SDK 1.x Client over
// stdio: only the toolset's tools are listed and callable; an unknown toolset is a usage error
// (exit 2) found before any upstream server is started.
let upstreams: Upstreams;
let configFile: string;

beforeAll(async () => {
  upstreams = await realUpstreams(["everything", "memory"]);
  const config = JSON.parse(await readFile(upstreams.configFile, "utf8")) as Record<string, unknown>;
  configFile = join(upstreams.directory.path, "mcp-toolsets.json");
  await writeFile(
    configFile,
    JSON.stringify({ ...config, toolsets: { reading: ["everything/echo", "memory/read_*", "memory/search_*"] } }),
  );
}, 60_000);

afterAll(async () => {
  await upstreams.remove();
});

describe("serve --toolset", () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: "toolset-test-client", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_BIN, "serve", "--config", configFile, "--toolset", "reading"],
        cwd: GATEWAY_DIR,
        stderr: "pipe",
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await client.close();
  }, 30_000);

  it("lists only the toolset's tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "everything__echo",
      "memory__read_graph",
      "memory__search_nodes",
    ]);
  });

  it("calls a tool of the toolset, and refuses one outside it as unknown", async () => {
    const echo = await client.callTool({ name: "everything__echo", arguments: { message: "in the set" } });
    expect(JSON.stringify(echo.content)).toContain("in the set");
    await expect(client.callTool({ name: "memory__create_entities", arguments: { entities: [] } })).rejects.toThrow(
      /Unknown tool "memory__create_entities"/,
    );
  });
});

describe("serve --toolset with a name the config does not define", () => {
  it("exits 2 before connecting, naming the toolsets there are", async () => {
    const child = spawn(process.execPath, [CLI_BIN, "serve", "--config", configFile, "--toolset", "writing"], {
      cwd: GATEWAY_DIR,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--toolset: No toolset "writing"; the toolsets are "reading"/);
    expect(stderr).not.toMatch(/server\(s\) connected/);
  }, 60_000);
});
