import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectNoLeakedProcesses, memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";

let dir: string;
let configPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-toolsets-"));
  configPath = join(dir, "mcp.json");
  const memory = memoryStdioServer(join(dir, "memory.jsonl"));
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: { memory: { ...memory } },
      toolsets: { reader: ["memory/read_*", "memory/search_*", "memory/open_*"], noDeletes: ["!memory/delete_*"] },
    }),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await expectNoLeakedProcesses();
});

function cli(argv: string[]): Promise<CapturedRun> {
  return runCliCaptured([...argv, "--config", configPath], { cwd: dir, stdinIsTTY: false });
}

async function listed(toolset: string): Promise<string[]> {
  const result = await cli(["tools", "--toolset", toolset, "--json"]);
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort();
}

describe("tools --toolset against server-memory", () => {
  it("lists only the toolset's tools", async () => {
    expect(await listed("reader")).toEqual(["memory/open_nodes", "memory/read_graph", "memory/search_nodes"]);
    const noDeletes = await listed("noDeletes");
    expect(noDeletes).toContain("memory/create_entities");
    expect(noDeletes.some((name) => name.startsWith("memory/delete_"))).toBe(false);
  });

  it("refuses an unknown toolset before connecting, with exit code 2 and the known names", async () => {
    const result = await cli(["tools", "--toolset", "ops"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--toolset: No toolset "ops"; the toolsets are "reader", "noDeletes"');
    expect(result.stderr).not.toMatch(/connected/);
  });
});
