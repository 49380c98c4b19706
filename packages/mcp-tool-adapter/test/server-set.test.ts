import { MCPToolAdapter as BaseMCPToolAdapter, type MCPServerConfig } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import {
  createHangingTransport,
  createInMemoryTestServer,
  createRefusingTransport,
  createTempDirectory,
  expectNoLeakedProcesses,
  memoryStdioServer,
  type InMemoryTestServer,
  type TransportSource,
} from "@mcp-tool-adapter/test-servers";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  MCPServerSet,
  type ServerConnectResult,
  type ServerEntries,
  type ServerSetAdapterFactory,
} from "../src/index.js";

// The stdio config is a placeholder for in-process servers: the factory below hands the adapter
// a transport to the test server instead of spawning anything.
const inProcess = { transport: "stdio", command: "in-process" } as const;

const weather = (): InMemoryTestServer =>
  createInMemoryTestServer({
    name: "weather",
    tools: [
      { name: "get_forecast", description: "Forecast for a city" },
      { name: "set_alert", description: "Create an alert" },
      { name: "purge_cache", description: "Drop cached forecasts" },
    ],
  });

const notes = (): InMemoryTestServer =>
  createInMemoryTestServer({
    name: "notes",
    tools: [
      { name: "list_notes", annotations: { readOnlyHint: true } },
      { name: "create_note", annotations: { readOnlyHint: false, destructiveHint: false } },
    ],
  });

/** Adapters whose transports come from the given sources (in-process servers, fault transports). */
function factoryFor(sources: Record<string, TransportSource>): ServerSetAdapterFactory {
  return (config: MCPServerConfig) => {
    const source = sources[config.name];
    if (source === undefined) throw new Error(`test has no transport for server "${config.name}"`);
    return new BaseMCPToolAdapter(config, { transport: () => source() });
  };
}

const openSets: MCPServerSet[] = [];
function track(set: MCPServerSet): MCPServerSet {
  openSets.push(set);
  return set;
}

afterEach(async () => {
  await Promise.all(openSets.splice(0).map((set) => set.close()));
});

describe("MCPServerSet with in-process servers", () => {
  it("registers every server's tools under its name in one registry", async () => {
    const a = weather();
    const b = notes();
    const set = track(
      new MCPServerSet(
        { weather: inProcess, notes: inProcess },
        { adapterFactory: factoryFor({ weather: () => a.connect(), notes: () => b.connect() }) },
      ),
    );
    const report = await set.connect();
    expect(report.ok).toBe(true);
    expect(report.connected).toEqual(["weather", "notes"]);
    expect(report.toolCount).toBe(5);
    expect(
      set.registry
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual([
      "notes/create_note",
      "notes/list_notes",
      "weather/get_forecast",
      "weather/purge_cache",
      "weather/set_alert",
    ]);
    const forecast = set.registry.get("weather/get_forecast");
    expect(forecast?.capabilities).toMatchObject({ readOnly: true, writes: false });
    expect(set.registry.get("notes/create_note")?.sourceMetadata).toMatchObject({ server: "notes" });
    const called = await set.registry.call("weather/get_forecast", { city: "Oslo" });
    expect(called.success).toBe(true);
    expect(JSON.stringify(called.data)).toContain("Oslo");
    for (const server of report.servers) {
      expect(server.status).toBe("connected");
      expect(server.handshakeMs).toBeGreaterThanOrEqual(0);
      expect(server.durationMs).toBeGreaterThanOrEqual(server.handshakeMs ?? 0);
    }
  });

  it("keeps the other servers' tools when one fails, and reports the failure classified with its timing", async () => {
    const a = weather();
    const ticks = [0, 5, 12, 20, 31, 45, 60, 80];
    let tick = 0;
    const set = track(
      new MCPServerSet(
        { weather: inProcess, down: inProcess },
        {
          adapterFactory: factoryFor({ weather: () => a.connect(), down: () => createRefusingTransport() }),
          now: () => ticks[Math.min(tick++, ticks.length - 1)] ?? 0,
        },
      ),
    );
    const seen: ServerConnectResult[] = [];
    const report = await set.connect({ onServerResult: (result) => seen.push(result) });
    expect(report.ok).toBe(false);
    expect(report.connected).toEqual(["weather"]);
    expect(report.failed).toEqual(["down"]);
    expect(set.registry.list({ namespace: "weather" })).toHaveLength(3);
    expect(set.registry.list({ namespace: "down" })).toHaveLength(0);
    const down = report.servers.find((s) => s.name === "down");
    expect(down).toMatchObject({ status: "failed", stage: "connect", transport: "stdio", tools: [] });
    expect(down?.error?.kind).toBe("connection_failed");
    expect(down?.error?.code).toBe("ECONNREFUSED");
    expect(down?.error?.message).toContain('"down"');
    expect(down?.durationMs).toBeGreaterThan(0);
    expect(seen.map((s) => s.name).sort()).toEqual(["down", "weather"]);
  });

  it("times a hanging server out on its own deadline while the others connect", async () => {
    const a = weather();
    const hanging = createHangingTransport("initialize");
    const set = track(
      new MCPServerSet(
        { weather: inProcess, stuck: { ...inProcess, connectTimeoutMs: 200 } },
        { adapterFactory: factoryFor({ weather: () => a.connect(), stuck: () => hanging }), connectTimeoutMs: 20_000 },
      ),
    );
    const report = await set.connect();
    const stuck = report.servers.find((s) => s.name === "stuck");
    expect(stuck?.status).toBe("failed");
    expect(stuck?.error?.kind).toBe("timeout");
    expect(stuck?.error?.message).toContain("200 ms");
    expect(hanging.closed).toBe(true);
    expect(report.connected).toEqual(["weather"]);
  });

  it("waits on a deadline longer than a timer can hold (above 2^31-1 ms) instead of timing out at once", async () => {
    const a = weather();
    // A server that takes 50 ms to start: an over-long timer fires after 1 ms, well before it.
    const slow = async (): Promise<Transport> => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return a.connect();
    };
    const set = track(
      new MCPServerSet(
        { weather: inProcess },
        { adapterFactory: factoryFor({ weather: slow }), connectTimeoutMs: 3_000_000_000 },
      ),
    );
    const report = await set.connect();
    expect(report.servers.find((s) => s.name === "weather")?.error).toBeUndefined();
    expect(report.connected).toEqual(["weather"]);
  });

  it("connects servers in parallel, not one after another", async () => {
    // Each server's transport waits until the other's has been asked for: run one at a time,
    // the first would wait forever and time out.
    const a = weather();
    const b = notes();
    let release: () => void = () => undefined;
    const bothAsked = new Promise<void>((resolve) => {
      let asked = 0;
      release = () => {
        asked += 1;
        if (asked === 2) resolve();
      };
    });
    const gated = (server: InMemoryTestServer) => async (): Promise<Transport> => {
      release();
      await bothAsked;
      return server.connect();
    };
    const set = track(
      new MCPServerSet(
        { weather: inProcess, notes: inProcess },
        { adapterFactory: factoryFor({ weather: gated(a), notes: gated(b) }), connectTimeoutMs: 10_000 },
      ),
    );
    const report = await set.connect();
    expect(report.ok).toBe(true);
  });

  it("applies tools.include / exclude as the adapter's filter and tools.overrides as capability overrides", async () => {
    const a = weather();
    const servers: ServerEntries = {
      weather: {
        ...inProcess,
        tools: {
          include: ["*_*"],
          exclude: ["purge_*"],
          overrides: { get_forecast: { readOnly: false, writes: true } },
        },
      },
    };
    const set = track(new MCPServerSet(servers, { adapterFactory: factoryFor({ weather: () => a.connect() }) }));
    const report = await set.connect();
    expect(report.servers[0]?.tools.sort()).toEqual(["weather/get_forecast", "weather/set_alert"]);
    expect(set.registry.has("weather/purge_cache")).toBe(false);
    const forecast = set.registry.get("weather/get_forecast");
    expect(forecast?.capabilities).toMatchObject({ readOnly: false, writes: true });
    expect(forecast?.sourceMetadata).toMatchObject({
      capabilitiesDecidedBy: { readOnly: "override", writes: "override" },
    });
  });

  it("fails a server whose name cannot be a namespace, or whose adapter cannot be built, as config_invalid", async () => {
    const a = weather();
    const set = track(
      new MCPServerSet(
        { "bad/name": inProcess, broken: { transport: "stdio", command: "" }, weather: inProcess },
        {
          adapterFactory: (config) => {
            if (config.name === "broken") return new BaseMCPToolAdapter(config); // its constructor validates: empty command
            return factoryFor({ weather: () => a.connect() })(config, { serverName: config.name, entry: inProcess });
          },
        },
      ),
    );
    const report = await set.connect();
    expect(report.connected).toEqual(["weather"]);
    const bad = report.servers.find((s) => s.name === "bad/name");
    expect(bad).toMatchObject({
      status: "failed",
      stage: "config",
      error: { kind: "config_invalid", code: "SERVER_NAME_INVALID" },
    });
    expect(bad?.error?.message).toMatch(
      /^Server name "bad\/name" cannot be a tool namespace: a namespace name must not contain "\/"/,
    );
    const broken = report.servers.find((s) => s.name === "broken");
    expect(broken).toMatchObject({
      status: "failed",
      stage: "config",
      error: { kind: "config_invalid", code: "CONFIG_INVALID" },
    });
  });

  it("uses a registry it is given, next to tools from other sources", async () => {
    const registry = new ToolRegistry();
    registry.register("local", {
      name: "ping",
      description: "local tool",
      inputSchema: { type: "object" },
      capabilities: { readOnly: true, writes: false },
      source: "local",
      sourceMetadata: {},
      checkpointable: true,
      handler: () => ({ success: true, data: "pong" }),
    });
    const b = notes();
    const set = track(
      new MCPServerSet({ notes: inProcess }, { registry, adapterFactory: factoryFor({ notes: () => b.connect() }) }),
    );
    await set.connect();
    expect(set.registry).toBe(registry);
    expect(
      registry
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(["local/ping", "notes/create_note", "notes/list_notes"]);
    await set.close();
    expect(registry.list().map((t) => t.name)).toEqual(["local/ping"]);
  });

  it("returns the same report to repeated connect() calls and connects afresh after close()", async () => {
    const a = weather();
    let transports = 0;
    const set = track(
      new MCPServerSet(
        { weather: inProcess },
        { adapterFactory: factoryFor({ weather: () => ((transports += 1), a.connect()) }) },
      ),
    );
    const [first, second] = await Promise.all([set.connect(), set.connect()]);
    expect(second).toBe(first);
    expect(transports).toBe(1);
    await set.close();
    expect(set.registry.size).toBe(0);
    const again = await set.connect();
    expect(again.ok).toBe(true);
    expect(transports).toBe(2);
  });
});

describe("MCPServerSet.close", () => {
  it("disconnects every adapter and reports one that fails to disconnect, without throwing", async () => {
    const a = weather();
    const b = notes();
    class FailingDisconnect extends BaseMCPToolAdapter {
      override async disconnect(): Promise<void> {
        await super.disconnect();
        throw new Error("socket would not close");
      }
    }
    const adapters: BaseMCPToolAdapter[] = [];
    const set = new MCPServerSet(
      { weather: inProcess, notes: inProcess },
      {
        adapterFactory: (config) => {
          const transport = config.name === "weather" ? () => a.connect() : () => b.connect();
          const adapter =
            config.name === "notes"
              ? new FailingDisconnect(config, { transport })
              : new BaseMCPToolAdapter(config, { transport });
          adapters.push(adapter);
          return adapter;
        },
      },
    );
    await set.connect();
    const report = await set.close();
    expect(report.closed).toEqual(["weather"]);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]).toMatchObject({
      name: "notes",
      error: { kind: "unknown", message: "socket would not close" },
    });
    expect(adapters.every((adapter) => !adapter.isConnected)).toBe(true);
    expect(set.registry.size).toBe(0);
  });

  it("is safe before connect and twice in a row", async () => {
    const set = new MCPServerSet({ weather: inProcess }, { adapterFactory: factoryFor({}) });
    await expect(set.close()).resolves.toEqual({ closed: [], failed: [] });
    await expect(set.close()).resolves.toEqual({ closed: [], failed: [] });
  });
});

describe("MCPServerSet with real stdio servers", () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("connects server-memory with the default adapter and reports a command that cannot start as spawn_failed and one that exits as server_exited", async () => {
    const dir = await createTempDirectory();
    try {
      const memory = memoryStdioServer(`${dir.path}/memory.jsonl`);
      const set = track(
        new MCPServerSet({
          memory: { transport: "stdio", ...memory },
          missing: { transport: "stdio", command: `${dir.path}/no-such-server` },
          quitter: {
            transport: "stdio",
            command: process.execPath,
            args: ["-e", "process.stderr.write('no config found\\n'); process.exit(4)"],
          },
        }),
      );
      const report = await set.connect();
      expect(report.connected).toEqual(["memory"]);
      expect(set.registry.get("memory/read_graph")?.capabilities.readOnly).toBe(true);
      expect(set.registry.get("memory/create_entities")?.capabilities.writes).toBe(true);
      const missing = report.servers.find((s) => s.name === "missing");
      expect(missing?.error).toMatchObject({ kind: "spawn_failed", code: "SPAWN_FAILED" });
      const quitter = report.servers.find((s) => s.name === "quitter");
      expect(quitter?.error).toMatchObject({ kind: "server_exited", code: "SERVER_EXITED" });
      expect(quitter?.error?.message).toContain(
        "the server exited with code 4; its stderr ended with: no config found",
      );
      const read = await set.registry.call("memory/read_graph", {});
      expect(read.success).toBe(true);
      const closed = await set.close();
      expect(closed.closed).toEqual(["memory"]);
    } finally {
      await dir.remove();
    }
  });
});
