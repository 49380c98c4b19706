import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createTempDirectory,
  expectNoLeakedProcesses,
  leakMarkerEnv,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";

// Issue 15: after disconnect() nothing of ours may keep Node's event loop alive, or every script
// and CLI command waits out the stdio kill grace before it exits.

const FIXTURE = fileURLToPath(new URL("fixtures/exit-by-itself.ts", import.meta.url));
const DOWN_FIXTURE = fileURLToPath(new URL("fixtures/down-at-exit.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
/** A kill grace no test could sit out: a timer for it left running would hang the script. */
const HOUR_MS = 3_600_000;
// A ceiling for a hang (tsx compiling the sources on a loaded machine), not a speed assertion.
const BOUND_MS = 60_000;

const directories: TempDirectory[] = [];

afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => directory.remove()));
  await expectNoLeakedProcesses();
});

/**
 * Runs a fixture script from source and waits for it to exit by itself, at most BOUND_MS (then it
 * is killed and reported as hung); returns how it ended and everything it printed.
 */
async function runUntilExit(
  args: readonly string[],
): Promise<{ exit: { code: number | null; signal: NodeJS.Signals | null } | "hung"; output: string }> {
  const child = spawn(process.execPath, ["--conditions=@mcp-tool-adapter/source", "--import", "tsx", ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...leakMarkerEnv() },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    ),
    new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), BOUND_MS))),
  ]).finally(() => clearTimeout(timer));
  if (exit === "hung") child.kill("SIGKILL");
  return { exit, output };
}

describe("a script using MCPToolAdapter over stdio", () => {
  it("exits by itself after disconnect(), even with an hour of killGraceMs", { timeout: 2 * BOUND_MS }, async () => {
    const directory = await createTempDirectory();
    directories.push(directory);
    const { exit, output } = await runUntilExit([FIXTURE, join(directory.path, "memory.jsonl"), String(HOUR_MS)]);
    expect(exit, output).toEqual({ code: 0, signal: null });
    expect(output).toContain("success=true");
    expect(output).toMatch(/disconnected-at=\d+/);
  });

  it(
    "exits by itself while a server that failed its first connect waits an hour to be probed",
    { timeout: 2 * BOUND_MS },
    async () => {
      const directory = await createTempDirectory();
      directories.push(directory);
      const { exit, output } = await runUntilExit([DOWN_FIXTURE, directory.path]);
      expect(exit, output).toEqual({ code: 0, signal: null });
      expect(output).toContain("state=down");
    },
  );
});
