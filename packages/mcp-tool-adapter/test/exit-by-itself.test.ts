import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDirectory, expectNoLeakedProcesses, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_BOUND_MS as BOUND_MS, runUntilExit } from "./run-fixture.js";

// Issue 15: after disconnect() nothing of ours may keep Node's event loop alive, or every script
// and CLI command waits out the stdio kill grace before it exits.

const FIXTURE = fileURLToPath(new URL("fixtures/exit-by-itself.ts", import.meta.url));
const DOWN_FIXTURE = fileURLToPath(new URL("fixtures/down-at-exit.ts", import.meta.url));
/** A kill grace no test could sit out: a timer for it left running would hang the script. */
const HOUR_MS = 3_600_000;

const directories: TempDirectory[] = [];

afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => directory.remove()));
  await expectNoLeakedProcesses();
});

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
