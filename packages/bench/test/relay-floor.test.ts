import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { CpuReport } from "../src/gateway/call-job.js";
import { buildRelayFloor, relayFloorCommand, type RelayFloorBuild } from "../src/gateway/relay-floor-build.js";
import { runCallWorker } from "../src/gateway/run-processes.js";

// The gateway bench's relay floor (issue 34): the native relay must carry a real client's calls to
// a real server and back, and report its CPU by phase like the other middles, or the "hop alone"
// figures mean nothing. Without a compiler the side is skipped, never a failed run.

let relay: RelayFloorBuild;
beforeAll(async () => {
  relay = await buildRelayFloor();
}, 60_000);
afterAll(async () => {
  if (relay.kind === "built") await relay.remove();
});
afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("the relay floor", () => {
  it("relays a real client's echo calls to server-everything and reports its CPU at each phase", async (context) => {
    if (relay.kind === "skipped") return context.skip(`this machine has ${relay.reason}`);
    const folder = await mkdtemp(join(tmpdir(), "relay-floor-test-"));
    try {
      const cpuReportPath = join(folder, "cpu.json");
      const target = {
        kind: "stdio" as const,
        ...relayFloorCommand(relay.path, { upstream: everythingStdioServer(), cpuReportPath }),
      };
      const result = await runCallWorker({
        target,
        warmupCalls: 5,
        sequentialCalls: 10,
        concurrentCalls: 20,
        inFlight: 5,
        markPhases: true,
      });
      expect(result.p50Us).toBeGreaterThan(0);
      expect(result.inFlightP50Us).toBeGreaterThan(0);
      const report = JSON.parse(await readFile(cpuReportPath, "utf8")) as CpuReport;
      expect(report.phaseEndsUs).toHaveLength(3);
      expect(report.cpuUs).toBeGreaterThanOrEqual(report.phaseEndsUs[2]!);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("is skipped, with the reason, when there is no C compiler", async () => {
    await expect(buildRelayFloor("/nonexistent/cc")).resolves.toEqual({
      kind: "skipped",
      reason: "no C compiler (/nonexistent/cc) on PATH",
    });
  });

  it("fails loudly when the compiler is there but cannot build the relay", async () => {
    await expect(buildRelayFloor("false")).rejects.toThrow(/false could not compile relay-floor\.c/);
  });
});
