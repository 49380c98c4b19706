import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDirectory, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliCaptured } from "./fixtures/run-cli-captured.js";

const SERVER = fileURLToPath(new URL("./fixtures/lifecycle-log-server.mjs", import.meta.url));

let directory: TempDirectory;
let log: string;

beforeEach(async () => {
  directory = await createTempDirectory("cli-early-server-");
  log = join(directory.path, "lifecycle.log");
  const config = { mcpServers: { probe: { command: process.execPath, args: [SERVER], env: { LIFECYCLE_LOG: log } } } };
  await writeFile(join(directory.path, "mcp.json"), JSON.stringify(config));
});
afterEach(() => directory.remove());

const events = async (): Promise<{ event: string; pid: number }[]> =>
  (await readFile(log, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { event: string; pid: number });

const call = (...extra: string[]) =>
  runCliCaptured(["call", "probe/echo", "--config", "mcp.json", "--args", '{"message":"hi"}', "--no-cache", ...extra], {
    cwd: directory.path,
    env: { ...process.env, NO_COLOR: "1", MCP_TOOL_ADAPTER_CACHE_DIR: join(directory.path, "cache") },
  });

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// `call` spawns a stdio server right after reading the config, before the adapter loads, and the
// server set takes that process over instead of spawning its own.
describe("call's early server start", () => {
  it("runs the call on the one server process it started early, and stops it", async () => {
    const result = await call();
    expect(result).toMatchObject({ code: 0, stdout: "hi\n" });
    const logged = await events();
    expect(logged.map(({ event }) => event)).toEqual(["start", "exit"]);
    expect(new Set(logged.map(({ pid }) => pid)).size).toBe(1);
  }, 60_000);

  it("stops the early server when the command fails before connecting it (a corrupt lock file)", async () => {
    await writeFile(join(directory.path, "mcp-tools.lock.json"), "{ not json");
    const result = await call();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not valid JSON");
    // The server was started, then ended by the CLI before it returned: nothing is left running.
    const logged = await events();
    expect(logged.map(({ event }) => event)).toEqual(["start", "exit"]);
    expect(logged.every(({ pid }) => !isRunning(pid))).toBe(true);
  }, 60_000);

  it("does not start a server for a call whose config entry is invalid", async () => {
    await writeFile(
      join(directory.path, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          probe: { command: process.execPath, args: [SERVER], env: { LIFECYCLE_LOG: log }, connectTimeoutMs: 0 },
        },
      }),
    );
    const result = await call();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("connectTimeoutMs");
    await expect(readFile(log, "utf8")).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
