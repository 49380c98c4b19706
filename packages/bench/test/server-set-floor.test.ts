import { expectNoLeakedProcesses, leakMarkerEnv } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { runServerSetFloorSide, type ServerSetFloorJob } from "../src/scenarios/server-set-floor.js";
import { typeScriptNodeArgs, workerPath } from "../src/workers/spawn-worker.js";

// The server-set scenario's floor side (issue 36): it must really connect every server, alone and
// in parallel, stop each server's family, and fail the run when a server does not connect, or
// the ratio our set is judged by means nothing.

const lightServers = (servers: number): ServerSetFloorJob => ({
  command: process.execPath,
  args: [...typeScriptNodeArgs(), workerPath("../servers/light-tools-server.ts"), "--tools=2", "--grandchild"],
  env: leakMarkerEnv(),
  servers,
  connectTimeoutMs: 60_000,
});

afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("the server-set floor side", () => {
  it("connects every server alone and all in parallel, and leaves no server or helper behind", async () => {
    const result = await runServerSetFloorSide(lightServers(3));
    expect(result.soloConnectMs).toHaveLength(3);
    for (const ms of [...result.soloConnectMs, result.parallelConnectMs, result.parallelConnectCpuMs])
      expect(ms).toBeGreaterThan(0);
  }, 120_000);

  it("fails the run when a server exits before answering initialize", async () => {
    const job = { ...lightServers(2), args: ["-e", "process.exit(3)"] };
    await expect(runServerSetFloorSide(job)).rejects.toThrow(/server0: exited \(3\) before answering initialize/);
  }, 60_000);

  it("fails the run when a server cannot be started", async () => {
    const job = { ...lightServers(2), command: "/nonexistent/mcp-server" };
    await expect(runServerSetFloorSide(job)).rejects.toThrow(/could not start \/nonexistent\/mcp-server/);
  }, 60_000);

  it("fails the run, and stops the server, when no answer comes before the deadline", async () => {
    const job = { ...lightServers(1), args: ["-e", "setInterval(() => undefined, 1000)"], connectTimeoutMs: 1_000 };
    await expect(runServerSetFloorSide(job)).rejects.toThrow(/server0: no answer to initialize in 1000 ms/);
  }, 60_000);
});
