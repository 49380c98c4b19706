import {
  counterServerConfig,
  createTempDirectory,
  leakMarkerEnv,
  readCounterState,
  setCounterServerDown,
  startCounterHttpServer,
  type CounterHttpServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HealthChangeEvent, RecoveryOptions } from "@mcp-tool-adapter/adapter";
import { MCPServerSet, MCPToolAdapter, runCli, ToolRegistry, type MCPToolResult } from "../../src/index.js";
import { resultJson, trackAdapter, useReliabilityChecks } from "./support.js";

useReliabilityChecks();

/** Small delays, so that restarts take milliseconds; the sleep is the real one (a real process restarts). */
const FAST: RecoveryOptions = { initialDelayMs: 1, maxDelayMs: 20, maxRestartsPerWindow: 1_000 };

let state: TempDirectory;
beforeEach(async () => {
  state = await createTempDirectory("counter-server-");
});
afterEach(async () => {
  await state.remove();
});

function counterAdapter(recovery: RecoveryOptions, clock?: { value: number }): MCPToolAdapter {
  return trackAdapter(
    new MCPToolAdapter(
      { name: "counter", transport: "stdio", ...counterServerConfig(state.path), env: leakMarkerEnv() },
      { recovery, ...(clock === undefined ? {} : { now: () => clock.value }) },
    ),
  );
}

async function pidOf(adapter: MCPToolAdapter): Promise<number> {
  return (resultJson(await adapter.invoke("whoami")) as { pid: number }).pid;
}

describe("a stdio server killed during a run, with recovery on", () => {
  it("2,000 calls, 5 kills: every read succeeds, every write succeeds or says it may or may not have run, none runs twice", async () => {
    const adapter = counterAdapter({ ...FAST, maxCallRetries: 3 });
    await adapter.connect();
    const CALLS = 2_000;
    const LANES = 8;
    const killAt = new Set([250, 600, 950, 1_300, 1_650]);
    const reads: MCPToolResult[] = [];
    const writes = new Map<string, MCPToolResult>();
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < CALLS) {
        const index = next++;
        if (killAt.has(index)) process.kill(await pidOf(adapter), "SIGKILL");
        if (index % 2 === 0) {
          reads.push(await adapter.invoke("read_count"));
        } else {
          const id = `write-${index}`;
          // Some writes take a moment on either side of their effect, so kills land mid-write.
          writes.set(id, await adapter.invoke("increment", { id, delayMs: index % 3 === 0 ? 2 : 0 }));
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));

    const failedReads = reads.filter((result) => !result.success);
    expect(failedReads.map((result) => result.error)).toEqual([]);
    expect(reads).toHaveLength(CALLS / 2);
    const unclear = [...writes].filter(([, result]) => !result.success);
    for (const [, result] of unclear) {
      expect(result.errorKind).toBe("outcome_unknown");
      expect(result.error).toContain("may or may not have run");
    }

    const { writes: executed, starts } = readCounterState(state.path);
    expect(new Set(executed).size, "a write ran twice").toBe(executed.length);
    for (const [id, result] of writes) if (result.success) expect(executed).toContain(id);
    expect(executed.length).toBeGreaterThanOrEqual(writes.size - unclear.length);
    expect(executed.length).toBeLessThanOrEqual(writes.size);
    expect(starts).toHaveLength(1 + killAt.size);
    expect(adapter.health).toMatchObject({ state: "connected", recoveries: killAt.size });
    console.info(
      `recovery run: ${CALLS} calls, ${killAt.size} kills, ${unclear.length} writes of unknown outcome (${executed.length - (writes.size - unclear.length)} of them ran)`,
    );
  });
});

describe("circuit breaker on a real stdio server", () => {
  it("stops restarting a server that never comes back, fails calls fast, and recovers once the server does", async () => {
    const clock = { value: 0 };
    const adapter = counterAdapter({ ...FAST, maxAttempts: 3, cooldownMs: 60_000 }, clock);
    await adapter.connect();
    setCounterServerDown(state.path, true);
    process.kill(await pidOf(adapter), "SIGKILL");

    const failed = await adapter.invoke("read_count");
    expect(failed).toMatchObject({ success: false, errorKind: "unavailable" });
    expect(adapter.health).toMatchObject({ state: "down", probeAt: 60_000 });
    expect(adapter.health.lastFailure).toContain("refusing to start");
    const startsWhenDown = readCounterState(state.path).starts.length;
    expect(startsWhenDown).toBe(1); // the restarts' processes exited before recording a start

    for (let call = 0; call < 20; call += 1)
      expect(await adapter.invoke("read_count")).toMatchObject({ errorKind: "unavailable" });
    await expect(adapter.discoverTools()).rejects.toMatchObject({ code: "SERVER_UNAVAILABLE" });

    setCounterServerDown(state.path, false);
    expect(await adapter.invoke("read_count")).toMatchObject({ errorKind: "unavailable" }); // still cooling down
    clock.value = 60_000;
    const back = await adapter.invoke("read_count");
    expect(back.success, back.error ?? "").toBe(true);
    expect(adapter.health).toMatchObject({ state: "connected", recoveries: 1 });
    expect(readCounterState(state.path).starts).toHaveLength(2);
  });
});

describe("a streamable HTTP server that forgets its sessions", () => {
  let server: CounterHttpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("starts a new session on HTTP 404, lists the tools again, and the calls go on", async () => {
    server = await startCounterHttpServer(state.path);
    const adapter = trackAdapter(
      new MCPToolAdapter({ name: "counter", transport: "streamable-http", url: server.url }, { recovery: FAST }),
    );
    await adapter.connect();
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "counter");
    expect((await registry.call("counter/increment", { id: "before" })).success).toBe(true);

    for (let round = 1; round <= 3; round += 1) {
      await server.forgetSessions();
      // A write refused for an unknown session never ran, so it is sent again on the new session.
      const write = await registry.call("counter/increment", { id: `after-${round}` });
      expect(write.success, write.error).toBe(true);
      const read = await registry.call("counter/read_count", {});
      expect(read.success, read.error).toBe(true);
    }
    expect(adapter.health).toMatchObject({ state: "connected", recoveries: 3 });
    expect(readCounterState(state.path).writes).toEqual(["before", "after-1", "after-2", "after-3"]);
    expect(registry.list({ namespace: "counter" }).map((tool) => tool.name)).toEqual([
      "counter/read_count",
      "counter/whoami",
      "counter/increment",
    ]);
  });
});

describe("recovery in a server set and in the CLI", () => {
  it("a set's recovery applies to servers without their own; an entry's own wins; events name the server", async () => {
    const events: HealthChangeEvent[] = [];
    const config = { transport: "stdio" as const, ...counterServerConfig(state.path), env: leakMarkerEnv() };
    const set = new MCPServerSet(
      { healing: config, plain: { ...config, recovery: false } },
      { recovery: FAST, onHealthChange: (event) => events.push(event) },
    );
    try {
      expect((await set.connect()).ok).toBe(true);
      expect(set.health.healing).toMatchObject({ state: "connected", recovery: true });
      expect(set.health.plain).toMatchObject({ state: "connected", recovery: false });
      const adapter = set.getAdapter("healing") as MCPToolAdapter;
      process.kill(await pidOf(adapter), "SIGKILL");
      const read = await set.registry.call("healing/read_count", {});
      expect(read.success, read.error).toBe(true);
      expect(set.health.healing).toMatchObject({ state: "connected", recoveries: 1 });
      expect(events.filter((event) => event.serverName === "healing").map((event) => event.to)).toEqual([
        "connected",
        "reconnecting",
        "connected",
      ]);
    } finally {
      await set.close();
    }
  });

  it("check shows which servers recover, from the config file's recovery field", async () => {
    const configFile = join(state.path, "mcp.json");
    const { command, args } = counterServerConfig(state.path);
    await writeFile(
      configFile,
      JSON.stringify({
        mcpServers: {
          healing: { command, args, env: leakMarkerEnv(), recovery: { maxAttempts: 2 } },
          plain: { command, args, env: leakMarkerEnv() },
        },
      }),
    );
    const run = async (argv: string[]): Promise<string> => {
      let stdout = "";
      const code = await runCli(argv, {
        stdout: { write: (chunk: string) => (stdout += chunk) },
        stderr: { write: () => true },
        env: { ...process.env, NO_COLOR: "1" },
        cwd: state.path,
        isTTY: false,
      });
      expect(code).toBe(0);
      return stdout;
    };
    const report = JSON.parse(await run(["check", "--config", configFile, "--json"])) as {
      servers: { name: string; health?: { state: string; recovery: boolean } }[];
    };
    expect(report.servers.map((server) => [server.name, server.health])).toEqual([
      ["healing", { state: "connected", recovery: true, recoveries: 0 }],
      ["plain", { state: "connected", recovery: false, recoveries: 0 }],
    ]);
    const table = await run(["check", "--config", configFile]);
    expect(table).toMatch(/RECOVERY/);
    expect(table).toMatch(/healing\s+ok\s+stdio.*\s+on\s*$/mu);
    expect(table).toMatch(/plain\s+ok\s+stdio.*\s+off\s*$/mu);
  });
});
