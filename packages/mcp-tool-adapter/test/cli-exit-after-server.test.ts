import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createTempDirectory,
  expectNoLeakedProcesses,
  readProcess,
  watchProcess,
} from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_BOUND_MS, runUntilExit } from "./run-fixture.js";

// Issue 37 §5: `call` exits right after its server has, so its look-up of the server's process
// family runs while the server shuts down and, after the exit, reads only what started since.
// Whatever the server starts on its way out must still be gone when `call` has exited.

const SERVER = fileURLToPath(new URL("./fixtures/lifecycle-log-server.mjs", import.meta.url));
const MAIN = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await expectNoLeakedProcesses();
});

function isRunning(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== "Z";
}

describe("`call` after its server's exit", () => {
  it.each([
    ["the server's", "plain"],
    ["an empty", "scrubbed"],
  ] as const)(
    "leaves nothing running that the server started as it shut down (a child with %s environment)",
    async (_what, childStyle) => {
      const directory = await createTempDirectory("cli-exit-after-server-");
      const log = join(directory.path, "lifecycle.log");
      const pids: number[] = [];
      cleanups.push(async () => {
        for (const pid of pids) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // Gone, as it should be.
          }
        }
        await directory.remove();
      });
      const config = join(directory.path, "mcp.json");
      const env = { LIFECYCLE_LOG: log, LIFECYCLE_CHILD_AT_EXIT: childStyle };
      await writeFile(
        config,
        JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [SERVER], env } } }),
      );

      const run = await runUntilExit([
        MAIN,
        "call",
        "probe/echo",
        "--config",
        config,
        "-a",
        '{"message":"hi"}',
        "--no-cache",
      ]);

      expect(run.exit, run.output).toEqual({ code: 0, signal: null });
      expect(run.output).toContain("hi");
      const events = (await readFile(log, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; pid: number });
      expect(events.map(({ event }) => event)).toEqual(["start", "child", "exit"]);
      const child = events[1]!.pid;
      pids.push(child);
      watchProcess(child);
      expect(isRunning(child), `the server's child ${child}: ${JSON.stringify(readProcess(child))}`).toBe(false);
    },
    FIXTURE_BOUND_MS,
  );
});
