import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultConfigPath, defaultConfigVariables } from "../src/cli/default-config.js";
import { MCPToolAdapter } from "../src/index.js";

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}
interface DefaultConfig {
  mcpServers: Record<string, { command: string; args: string[] }>;
}

const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as Manifest;
const defaultConfig = JSON.parse(await readFile(defaultConfigPath(), "utf8")) as DefaultConfig;
const SERVERS = ["@modelcontextprotocol/server-everything", "@modelcontextprotocol/server-memory"];

describe("the CLI's default config", () => {
  it("does not make the demo servers run-time dependencies of the package", () => {
    for (const server of SERVERS) expect(manifest.dependencies).not.toHaveProperty(server);
  });

  it("pins each server at the version the repository tests and demos (its development dependency)", () => {
    const specs = Object.values(defaultConfig.mcpServers).map((entry) => entry.args[1]);
    expect(specs.sort()).toEqual(
      SERVERS.map((server) => `${server}@${manifest.devDependencies?.[server] ?? "missing"}`).sort(),
    );
  });
});

describe("config/run-server.mjs", () => {
  let memoryDir: string;
  beforeAll(async () => {
    memoryDir = await mkdtemp(join(tmpdir(), "run-server-test-"));
  });
  afterAll(async () => {
    await rm(memoryDir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("runs an installed copy of the server, with no npx to fall back on", async () => {
    const spec = `@modelcontextprotocol/server-memory@${manifest.devDependencies?.["@modelcontextprotocol/server-memory"] ?? ""}`;
    const adapter = new MCPToolAdapter({
      name: "memory",
      transport: "stdio",
      command: process.execPath,
      args: [defaultConfigVariables().MCP_TOOL_ADAPTER_RUN_SERVER ?? "", spec],
      // No PATH entry holds npx: only the installed copy can answer.
      env: { PATH: memoryDir, MEMORY_FILE_PATH: join(memoryDir, "memory.jsonl") },
    });
    try {
      await adapter.connect({ timeoutMs: 15_000 });
      const tools = await adapter.discoverTools();
      expect(tools.map((tool) => tool.name)).toContain("read_graph");
    } finally {
      await adapter.disconnect();
    }
  });
});
