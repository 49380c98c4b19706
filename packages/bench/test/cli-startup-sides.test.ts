import { expectNoLeakedProcesses, createTempDirectory, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { publishedStartupTargets } from "../src/scenarios/cli-startup-servers.js";
import { runFloorSide, runServerAloneSide } from "../src/scenarios/cli-startup-sides.js";

// The cli-startup scenario's two reference sides against the published servers (issue 37 §5):
// each must really make its call (a failed one fails the run) and leave no process behind, or
// the ratios `call` is judged by mean nothing. The CLI side needs the build; the bench runs it.

let directory: TempDirectory;

beforeEach(async () => {
  directory = await createTempDirectory("cli-startup-sides-");
});
afterEach(async () => {
  await directory.remove();
  await expectNoLeakedProcesses();
});

describe("the cli-startup sides", () => {
  it.each(["everything", "memory", "filesystem"])(
    "calls %s's cheap tool alone and through the floor, each to the server's exit",
    async (name) => {
      const target = publishedStartupTargets(directory.path).find((each) => each.name === name)!;
      for (const run of [await runServerAloneSide(target), await runFloorSide(target, directory.path)])
        expect(run.exited).toBeGreaterThan(run.spawned);
    },
  );

  it("fails a run whose call fails, on both sides", async () => {
    const [everything] = publishedStartupTargets(directory.path);
    const failing = { ...everything!, tool: "no-such-tool" };
    await expect(runServerAloneSide(failing)).rejects.toThrow(/tools\/call failed/);
    await expect(runFloorSide(failing, directory.path)).rejects.toThrow(/exited with 1/);
  });
});
