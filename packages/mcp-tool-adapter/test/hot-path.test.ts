import { fileURLToPath } from "node:url";
import { expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_BOUND_MS, runUntilExit } from "./run-fixture.js";

// Issue 31: one invoke() on the default engine crosses at most 8 source files of ours, from the
// umbrella to the transport's send. docs/architecture.md follows the same path file by file.

const PROBE = fileURLToPath(new URL("fixtures/hot-path-probe.ts", import.meta.url));
const MAX_FILES = 8;

afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("one invoke() over stdio on the default engine", () => {
  it(
    `crosses at most ${MAX_FILES} files of ours on its way to the transport`,
    { timeout: 2 * FIXTURE_BOUND_MS },
    async () => {
      const { exit, output } = await runUntilExit([PROBE]);
      expect(exit, output).toEqual({ code: 0, signal: null });
      const line = output.split("\n").find((text) => text.startsWith("HOT_PATH "));
      expect(line, output).toBeDefined();
      const { success, files } = JSON.parse(line!.slice("HOT_PATH ".length)) as { success: boolean; files: string[] };
      expect(success).toBe(true);
      // The path's two ends: were they missing, the probe would have seen nothing at all.
      expect(files).toContain("packages/adapter/src/mcp-tool-adapter.ts");
      expect(files).toContain("packages/transport-stdio/src/stdio-transport.ts");
      expect(files.length, files.join("\n")).toBeLessThanOrEqual(MAX_FILES);
    },
  );
});
