import {
  counterServerConfig,
  createTempDirectory,
  leakMarkerEnv,
  readCounterState,
  setCounterServerDown,
  startCounterHttpServer,
  startEverythingHttp,
  type CounterHttpServer,
  type EverythingHttpServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HealthChangeEvent, RecoveryOptions } from "@mcp-tool-adapter/adapter";
import {
  MCPConnectionError,
  MCPServerSet,
  MCPToolAdapter,
  runCli,
  ToolRegistry,
  type MCPToolResult,
} from "../../src/index.js";
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

function counterAdapter(
  recovery: RecoveryOptions,
  clock?: { value: number },
  onHealthChange?: (event: HealthChangeEvent) => void,
): MCPToolAdapter {
  return trackAdapter(
    new MCPToolAdapter(
      { name: "counter", transport: "stdio", ...counterServerConfig(state.path), env: leakMarkerEnv() },
      {
        recovery,
        ...(clock === undefined ? {} : { now: () => clock.value }),
        ...(onHealthChange === undefined ? {} : { onHealthChange }),
      },
    ),
  );
}

/**
 * Waits until `condition` holds, polling; fails with `what` after `timeoutMs`. Generous: what is
 * waited for is several server processes starting, and on a loaded 2-core CI machine one Node start
 * can take seconds. Only a failure waits this long.
 */
async function eventually(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(10);
  }
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

describe("servers that come back while nobody calls", () => {
  let server: EverythingHttpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it("a stdio server that fails its first connect: connect() throws, the server is down, then probed on the backoff until it is back", async () => {
    setCounterServerDown(state.path, true);
    const events: string[] = [];
    const adapter = counterAdapter(
      { initialDelayMs: 40, maxDelayMs: 200, maxAttempts: 3, cooldownMs: 400 },
      undefined,
      (event) => events.push(`${event.from}->${event.to}`),
    );
    const failure = await adapter.connect().catch((error: unknown) => error);
    expect(MCPConnectionError.isInstance(failure)).toBe(true);
    expect(adapter.health).toMatchObject({ state: "down", attempt: 1, recovery: true });
    expect(adapter.health.lastFailure).toContain("refusing to start");
    expect(await adapter.invoke("read_count")).toMatchObject({ success: false, errorKind: "unavailable" });

    // The backoff attempts (2 and 3) and a probe after the cooldown all fail while the marker is there.
    await eventually(() => adapter.health.attempt >= 4, "a probe after the cooldown ran");
    expect(adapter.health.state === "down" || adapter.health.state === "probing").toBe(true);
    setCounterServerDown(state.path, false);
    await eventually(() => adapter.health.state === "connected", "the server is back, with no call made");
    expect(events.slice(0, 2)).toEqual(["disconnected->down", "down->probing"]);
    expect(events.at(-1)).toBe("probing->connected");
    expect(adapter.health.recoveries).toBe(1);
    const read = await adapter.invoke("read_count");
    expect(read.success, read.error ?? "").toBe(true);
  });

  it("an idle adapter whose HTTP server went down sees it come back on the same port, and stops probing on disconnect()", async () => {
    server = await startEverythingHttp({ mode: "streamableHttp" });
    const { port, url } = server;
    const events: HealthChangeEvent[] = [];
    const adapter = trackAdapter(
      new MCPToolAdapter(
        { name: "everything", transport: "streamable-http", url },
        {
          recovery: { initialDelayMs: 10, maxDelayMs: 50, maxAttempts: 2, cooldownMs: 300 },
          onHealthChange: (event) => events.push(event),
        },
      ),
    );
    await adapter.connect();
    await server.stop();
    // A call notices the server is gone; the restarts fail and the server is marked down.
    expect((await adapter.invoke("echo", { message: "hi" })).success).toBe(false);
    await eventually(() => adapter.health.state === "down", "the server is marked down");

    // Started again on the same port; no call is made from here on.
    server = await startEverythingHttp({ mode: "streamableHttp", port });
    await eventually(() => adapter.health.state === "connected", "the probe timer found the server back");
    const back = events.at(-1);
    expect(back).toMatchObject({ from: "probing", to: "connected", reason: "the probe succeeded" });
    expect(events.some((event) => event.to === "probing" && event.reason.includes("probe timer"))).toBe(true);
    const echoed = await adapter.invoke("echo", { message: "again" });
    expect(echoed.success, echoed.error ?? "").toBe(true);

    // Down again, then disconnect(): no probe runs after it, whatever the cooldown.
    await server.stop();
    expect((await adapter.invoke("echo", { message: "gone" })).success).toBe(false);
    await eventually(() => adapter.health.state === "down", "the server is marked down again");
    await adapter.disconnect();
    const seen = events.length;
    server = await startEverythingHttp({ mode: "streamableHttp", port });
    await sleep(1_000);
    expect(events.slice(seen)).toEqual([]);
    expect(adapter.health.state).toBe("disconnected");
    expect(adapter.isConnected).toBe(false);
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

  it("a server whose first connect fails keeps being tried in the background; its tools are registered once it is back", async () => {
    setCounterServerDown(state.path, true);
    const events: HealthChangeEvent[] = [];
    const config = { transport: "stdio" as const, ...counterServerConfig(state.path), env: leakMarkerEnv() };
    const set = new MCPServerSet(
      { late: config },
      { recovery: { initialDelayMs: 30, maxDelayMs: 100, cooldownMs: 300 }, onHealthChange: (e) => events.push(e) },
    );
    try {
      const report = await set.connect();
      expect(report.failed).toEqual(["late"]);
      expect(set.health.late).toMatchObject({ state: "down", recovery: true });
      expect(set.registry.list({ namespace: "late" })).toEqual([]);
      setCounterServerDown(state.path, false);
      await eventually(
        () => set.registry.list({ namespace: "late" }).length === 3,
        "the late server's tools are registered",
      );
      const read = await set.registry.call("late/read_count", {});
      expect(read.success, read.error).toBe(true);
      expect(events.at(-1)).toMatchObject({ serverName: "late", to: "connected" });
    } finally {
      await set.close();
    }
    const starts = readCounterState(state.path).starts.length;
    await sleep(700);
    expect(readCounterState(state.path).starts).toHaveLength(starts);
    expect(set.registry.list({ namespace: "late" })).toEqual([]);
  });

  it("check --json says a server whose first connect failed is down, with the reason", async () => {
    setCounterServerDown(state.path, true);
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
    let stdout = "";
    const code = await runCli(["check", "--config", configFile, "--json"], {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: () => true },
      env: { ...process.env, NO_COLOR: "1" },
      cwd: state.path,
      isTTY: false,
    });
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as {
      servers: { name: string; status: string; health?: { state: string; recovery: boolean; lastFailure?: string } }[];
    };
    const [healing, plain] = report.servers;
    expect(healing).toMatchObject({ name: "healing", status: "failed", health: { recovery: true } });
    // Down, or already in the probe that follows the cooldown (on a loaded machine check may read it
    // then): either way not up, and being tried again.
    expect(["down", "probing"]).toContain(healing?.health?.state);
    expect(healing?.health?.lastFailure).toContain("refusing to start");
    expect(plain).toMatchObject({
      name: "plain",
      status: "failed",
      health: { state: "disconnected", recovery: false },
    });
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
