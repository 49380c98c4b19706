import { createInMemoryTestServer, type InMemoryTestServer, type TestTool } from "@mcp-tool-adapter/test-servers";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { afterEach, describe, expect, it } from "vitest";
import { restartDelay, recoveryPolicy } from "../src/recovery/options.js";
import {
  MCPNotConnectedError,
  MCPToolAdapter,
  type MCPToolAdapterOptions,
  type RecoveryOptions,
} from "../src/index.js";
import { STDIO_CONFIG, waitFor } from "./helpers.js";

const adapters: MCPToolAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});

/** Tools whose handler drops every session while the call is in flight, when `cut` names them. */
function cuttingTools(server: () => InMemoryTestServer, cut: Set<string>): TestTool[] {
  const handler =
    (name: string): TestTool["handler"] =>
    async (args) => {
      if (cut.delete(name)) {
        await server().close();
        return new Promise<never>(() => undefined); // the answer never comes: the session is gone
      }
      return { content: [{ type: "text", text: JSON.stringify({ name, args }) }] };
    };
  return [
    { name: "read_value", annotations: { readOnlyHint: true }, handler: handler("read_value") },
    { name: "set_value", annotations: { readOnlyHint: false, idempotentHint: true }, handler: handler("set_value") },
    { name: "add_item", annotations: { readOnlyHint: false }, handler: handler("add_item") },
    { name: "hidden_tool", annotations: { readOnlyHint: true } },
  ];
}

interface Rig {
  server: InMemoryTestServer;
  adapter: MCPToolAdapter;
  cut: Set<string>;
  /** While true the transport factory fails, as a server that does not start. */
  down: { value: boolean };
  connects: () => number;
  delays: number[];
  events: string[];
  clock: { value: number };
}

function rig(recovery: RecoveryOptions | false = {}, options: MCPToolAdapterOptions = {}): Rig {
  const cut = new Set<string>();
  const server: InMemoryTestServer = createInMemoryTestServer({
    tools: cuttingTools(() => server, cut),
    resources: [{ uri: "test://a", name: "a" }],
  });
  const down = { value: false };
  const clock = { value: 0 };
  const delays: number[] = [];
  const events: string[] = [];
  let connects = 0;
  const adapter = new MCPToolAdapter(STDIO_CONFIG, {
    transport: () => {
      connects += 1;
      if (down.value) throw new Error("the server refuses to start");
      return server.connect();
    },
    now: () => clock.value,
    onHealthChange: (event) => events.push(`${event.from}->${event.to}`),
    ...(recovery === false
      ? {}
      : {
          recovery: {
            random: () => 0.5,
            sleep: (ms) => {
              delays.push(ms);
              return Promise.resolve();
            },
            ...recovery,
          },
        }),
    ...options,
  });
  adapters.push(adapter);
  return { server, adapter, cut, down, connects: () => connects, delays, events, clock };
}

function callsOf(server: InMemoryTestServer): number {
  return server.callCount;
}

describe("restart backoff", () => {
  it("grows exponentially from initialDelayMs, is capped at maxDelayMs, and jitter takes off up to its share", () => {
    const policy = (random: number) =>
      recoveryPolicy({ initialDelayMs: 100, multiplier: 2, maxDelayMs: 1_000, jitter: 0.5, random: () => random })!;
    expect([1, 2, 3, 4, 5, 6].map((attempt) => restartDelay(attempt, policy(0)))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(restartDelay(3, policy(1))).toBe(200);
    expect(restartDelay(3, policy(0.5))).toBe(300);
    expect(recoveryPolicy(false)).toBeUndefined();
    expect(recoveryPolicy(true)).toMatchObject({ maxAttempts: 5, initialDelayMs: 100, cooldownMs: 30_000 });
  });
});

describe("circuit breaker", () => {
  it("restarts with backoff up to maxAttempts, then fails calls fast until a probe after the cooldown succeeds", async () => {
    const { adapter, server, down, connects, delays, events, clock } = rig({
      maxAttempts: 3,
      initialDelayMs: 100,
      cooldownMs: 5_000,
    });
    await adapter.connect();
    down.value = true;
    await server.close();
    await waitFor(() => adapter.health.state === "down");
    expect(delays).toEqual([75, 150, 300]);
    expect(connects()).toBe(4);
    expect(adapter.health).toMatchObject({ state: "down", probeAt: 5_000, recovery: true });
    expect(adapter.health.lastFailure).toContain("the server refuses to start");

    const fast = await adapter.invoke("read_value");
    expect(fast).toMatchObject({ success: false, errorKind: "unavailable" });
    expect(fast.error).toContain("circuit open");
    expect(connects()).toBe(4); // no restart for a call while the circuit is open

    clock.value = 5_000; // the cooldown is over, but the server still refuses: the probe fails
    expect(await adapter.invoke("read_value")).toMatchObject({ errorKind: "unavailable" });
    expect(connects()).toBe(5);
    expect(adapter.health.probeAt).toBe(10_000);

    clock.value = 10_000;
    down.value = false;
    const back = await adapter.invoke("read_value");
    expect(back.success).toBe(true);
    expect(adapter.health).toMatchObject({ state: "connected", attempt: 0, recoveries: 1 });
    expect(events).toEqual([
      "disconnected->connected",
      "connected->reconnecting",
      "reconnecting->down",
      "down->probing",
      "probing->down",
      "down->probing",
      "probing->connected",
    ]);
  });

  it("marks a crash-looping server down once it used up maxRestartsPerWindow", async () => {
    const { adapter, server } = rig({ maxRestartsPerWindow: 2, windowMs: 60_000 });
    await adapter.connect();
    for (let restart = 1; restart <= 2; restart += 1) {
      await server.close();
      await waitFor(() => adapter.health.recoveries === restart && adapter.health.state === "connected");
    }
    await server.close();
    await waitFor(() => adapter.health.state === "down");
    expect(adapter.health.lastFailure).toContain("the server closed the connection");
  });
});

describe("a server that fails its first connect", () => {
  it("with recovery on: connect() throws, and the server is down with the reason until the next attempt of the backoff", async () => {
    const { adapter, down, connects, events } = rig({
      maxAttempts: 3,
      initialDelayMs: 10_000,
      maxDelayMs: 100_000,
      cooldownMs: 60_000,
    });
    down.value = true;
    await expect(adapter.connect()).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    expect(adapter.health).toMatchObject({ state: "down", attempt: 1, probeAt: 15_000, recovery: true });
    expect(adapter.health.lastFailure).toContain("the server refuses to start");
    expect(events).toEqual(["disconnected->down"]);
    expect(await adapter.invoke("read_value")).toMatchObject({ success: false, errorKind: "unavailable" });
    expect(connects()).toBe(1);
    await adapter.disconnect();
    expect(adapter.health.state).toBe("disconnected");
  });

  it("without recovery, or when disconnect() overtook the connect, nothing is supervised", async () => {
    const plain = rig(false);
    plain.down.value = true;
    await expect(plain.adapter.connect()).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    expect(plain.adapter.health).toMatchObject({ state: "disconnected", recovery: false });

    let refuse: ((error: Error) => void) | undefined;
    const adapter = new MCPToolAdapter(STDIO_CONFIG, {
      transport: () => new Promise((_resolve, reject) => (refuse = reject)),
      recovery: true,
    });
    adapters.push(adapter);
    const connecting = adapter.connect();
    await waitFor(() => refuse !== undefined);
    const disconnecting = adapter.disconnect();
    refuse?.(new Error("the server refuses to start"));
    await expect(connecting).rejects.toMatchObject({ code: "CONNECTION_FAILED" });
    await disconnecting;
    expect(adapter.health.state).toBe("disconnected");
  });
});

describe("the probe timer", () => {
  it("probes a down server with no call once the cooldown is over, and disconnect() stops it", async () => {
    const { adapter, server, down, connects, events } = rig({ maxAttempts: 1, cooldownMs: 100 });
    await adapter.connect();
    down.value = true;
    await server.close();
    await waitFor(() => adapter.health.state === "down");
    down.value = false;
    await waitFor(() => adapter.health.state === "connected"); // no call: the timer probed it
    expect(events.slice(-3)).toEqual(["reconnecting->down", "down->probing", "probing->connected"]);

    down.value = true;
    await server.close();
    await waitFor(() => adapter.health.state === "down");
    const attempts = connects();
    await adapter.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(connects()).toBe(attempts);
    expect(adapter.health.state).toBe("disconnected");
  });
});

describe("calls cut off by a failure", () => {
  it("sends a read-only or idempotent call again after the restart, and never a write", async () => {
    const { adapter, server, cut } = rig();
    await adapter.connect();
    for (const name of ["read_value", "set_value"]) {
      cut.add(name);
      const before = callsOf(server);
      const result = await adapter.invoke(name, { n: 1 });
      expect(result.success, result.error ?? "").toBe(true);
      expect(callsOf(server) - before).toBe(2);
    }

    cut.add("add_item");
    const before = callsOf(server);
    const write = await adapter.invoke("add_item", { n: 1 });
    expect(write).toMatchObject({ success: false, errorKind: "outcome_unknown" });
    expect(write.error).toContain("may or may not have run");
    expect(write.error).toContain("not sent again");
    expect(callsOf(server) - before).toBe(1);
    // The server is back for the next call.
    expect((await adapter.invoke("add_item", { n: 2 })).success).toBe(true);
    expect(adapter.health.recoveries).toBe(3);
  });

  it("decides retry safety with the capabilityOverrides: a read-only tool overridden to write is not sent again, a write overridden to read-only is", async () => {
    const { adapter, server, cut } = rig(
      {},
      { capabilityOverrides: { read_value: { writes: true }, add_item: { readOnly: true } } },
    );
    await adapter.connect();

    cut.add("read_value");
    let before = callsOf(server);
    const overriddenToWrite = await adapter.invoke("read_value", { n: 1 });
    expect(overriddenToWrite).toMatchObject({ success: false, errorKind: "outcome_unknown" });
    expect(callsOf(server) - before).toBe(1);

    cut.add("add_item");
    before = callsOf(server);
    const overriddenToRead = await adapter.invoke("add_item", { n: 1 });
    expect(overriddenToRead.success, overriddenToRead.error ?? "").toBe(true);
    expect(callsOf(server) - before).toBe(2);
  });

  it("without recovery the behaviour is as before: the call fails as connection_lost and the adapter stays down", async () => {
    const { adapter, cut, connects, events } = rig(false);
    await adapter.connect();
    cut.add("read_value");
    expect(await adapter.invoke("read_value")).toMatchObject({ success: false, errorKind: "connection_lost" });
    expect(adapter.health).toMatchObject({ state: "disconnected", recovery: false });
    await expect(adapter.invoke("read_value")).rejects.toBeInstanceOf(MCPNotConnectedError);
    expect(connects()).toBe(1);
    expect(events).toEqual(["disconnected->connected", "connected->disconnected"]);
  });

  it("a call waiting for a restart ends when disconnect() is called, and nothing is restarted after it", async () => {
    const { adapter, server, connects } = rig({
      // The restart never comes on its own: it waits until recovery is stopped.
      sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve())),
    });
    await adapter.connect();
    await server.close();
    await waitFor(() => adapter.health.state === "reconnecting");
    const waiting = adapter.invoke("read_value");
    await adapter.disconnect();
    await expect(waiting).rejects.toBeInstanceOf(MCPNotConnectedError);
    expect(adapter.health.state).toBe("disconnected");
    expect(connects()).toBe(1);
  });

  it("a call waiting for a restart fails as a timeout at its deadline", async () => {
    const { adapter, server } = rig({
      sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener("abort", () => resolve())),
    });
    await adapter.connect();
    await server.close();
    const result = await adapter.invoke("read_value", {}, { timeoutMs: 20 });
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(result.error).toContain("was not back within");
  });
});

describe("state after recovery", () => {
  it("keeps the registered namespace (listed again and replaced in one change), the tool filter and the resource subscriptions", async () => {
    const { adapter, server, cut, down, clock } = rig({ maxAttempts: 1, cooldownMs: 10 });
    await adapter.connect();
    const registry = new ToolRegistry();
    await adapter.discoverTools({ exclude: ["hidden_*"] });
    await adapter.registerTools(registry, "ns");
    const updates: string[] = [];
    const subscribed = await adapter.subscribeResource("test://a", (event) => updates.push(event.uri));
    expect(subscribed.success).toBe(true);
    const names = registry.list({ namespace: "ns" }).map((tool) => tool.name);
    expect(names).not.toContain("ns/hidden_tool");

    // A read cut off by a crash: sent again on the new session through the registry's handler.
    cut.add("read_value");
    const result = await registry.call("ns/read_value", {});
    expect(result.success, result.error ?? "").toBe(true);
    expect(adapter.health.recoveries).toBe(1);
    expect(registry.list({ namespace: "ns" }).map((tool) => tool.name)).toEqual(names);
    expect(server.subscriptions.filter((uri) => uri === "test://a")).toHaveLength(2);
    await server.sendResourceUpdated("test://a");
    await waitFor(() => updates.length === 1);

    // The server comes back with one more tool (and one more hidden one): the namespace changes once.
    down.value = true;
    await server.close();
    await waitFor(() => adapter.health.state === "down");
    await server.addTool({ name: "count_items", annotations: { readOnlyHint: true } });
    await server.addTool({ name: "hidden_other", annotations: { readOnlyHint: true } });
    const changes: { added: string[]; removed: string[] }[] = [];
    registry.subscribe((change) => changes.push(change));
    const readValueBefore = adapter.discoveredTools.find((tool) => tool.name === "read_value");
    const toolEvents: { added: string[]; removed: string[]; changed: string[] }[] = [];
    adapter.onToolsChanged((event) => toolEvents.push(event));
    down.value = false;
    clock.value = 10;
    expect((await registry.call("ns/read_value", {})).success).toBe(true);
    expect(changes).toEqual([expect.objectContaining({ added: ["ns/count_items"], removed: [] })]);
    // Listed anew on the new session, the other tools are told apart from changed ones by their definitions.
    expect(toolEvents).toEqual([expect.objectContaining({ added: ["count_items"], removed: [], changed: [] })]);
    // ... and an unchanged tool keeps its entry: the same frozen descriptor, not a copy.
    expect(adapter.discoveredTools.find((tool) => tool.name === "read_value")).toBe(readValueBefore);
    expect(registry.list({ namespace: "ns" }).map((tool) => tool.name)).toEqual([...names, "ns/count_items"]);
    expect(server.subscriptions.filter((uri) => uri === "test://a")).toHaveLength(3);
  });
});
