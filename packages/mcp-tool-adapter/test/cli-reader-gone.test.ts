import { fileURLToPath } from "node:url";
import { expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_BOUND_MS, runUntilExit } from "./run-fixture.js";

// `mcp-tool-adapter --help | head -1`: the reader closes the pipe before the command has written
// everything. The command must end quietly, not with an unhandled EPIPE and a stack trace.

const MAIN = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("a reader that leaves early", () => {
  it.each([[["--help"]], [["tools", "--help"]]])(
    "%j ends with exit code 0 and nothing on stderr",
    async (args) => {
      const { exit, output } = await runUntilExit([MAIN, ...args], { stdoutClosed: true });
      expect(exit, output).toEqual({ code: 0, signal: null });
      expect(output).toBe("");
    },
    2 * FIXTURE_BOUND_MS,
  );
});
