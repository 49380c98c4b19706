import { MCPToolAdapter, type CacheStore, type MCPProtocolSetting } from "@mcp-tool-adapter/adapter";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// The adapter's cross-process tool-list cache on engine-2026 sessions, both eras, counted on the
// wire (the requests the in-process SDK v2 server got). Each adapter has an engine of its own, as
// a new process would; they share one store, as processes share the file store.

/** A store that outlives the adapters (the file store's contract, in memory), with the ttlMs each entry was written with. */
function sharedStore(shared = false): CacheStore & { readonly ttls: (number | undefined)[] } {
  const entries = new Map<string, string>();
  const ttls: (number | undefined)[] = [];
  return {
    shared,
    ttls,
    get: (key) => Promise.resolve(entries.get(key)),
    set: (key, value, options) => {
      ttls.push(options?.ttlMs);
      entries.set(key, value);
      return Promise.resolve();
    },
    delete: (key) => {
      entries.delete(key);
      return Promise.resolve();
    },
  };
}

let server: V2HttpServer | undefined;
const adapters: MCPToolAdapter[] = [];

afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
  await server?.close();
  server = undefined;
});

interface Start {
  store: CacheStore;
  protocol: MCPProtocolSetting;
  clock: () => number;
}

/** A new adapter (a new process) on its own engine, connected, its tools discovered. */
async function discovered({ store, protocol, clock }: Start): Promise<MCPToolAdapter> {
  const adapter = new MCPToolAdapter(
    { name: "v2", transport: "streamable-http", url: server!.url, protocol },
    { engine: createEngine2026(), toolListCache: { store, clock, maxAgeMs: 60_000 }, defaultTimeoutMs: 10_000 },
  );
  adapters.push(adapter);
  await adapter.connect();
  await adapter.discoverTools();
  return adapter;
}

const listings = (): number => server!.methods.filter((method) => method === "tools/list").length;

describe("the tool-list cache on engine-2026", () => {
  it("2026-07-28: a second process lists from the cache within the server's ttlMs, and from the server after it", async () => {
    server = await startV2HttpServer({ modernOnly: true, toolsListTtlMs: 5_000 });
    const store = sharedStore();
    let now = 1_000_000;
    const clock = (): number => now;
    const first = await discovered({ store, protocol: "2026-07-28", clock });
    expect(first.protocolEra).toBe("2026-07-28");
    expect(listings()).toBe(1);
    // Stored for the server's ttlMs, not the adapter's maxAgeMs.
    expect(store.ttls).toEqual([5_000]);

    now += 4_000;
    const second = await discovered({ store, protocol: "2026-07-28", clock });
    expect(listings()).toBe(1);
    expect(second.discoveredTools.map((tool) => tool.name)).toContain("echo");
    expect(await second.invoke("echo", { text: "from the cache" })).toMatchObject({ success: true });

    now += 2_000;
    await discovered({ store, protocol: "2026-07-28", clock });
    expect(listings()).toBe(2);
  });

  it("2026-07-28: a listing with no hint (ttlMs 0) is never served from the cache", async () => {
    server = await startV2HttpServer({ modernOnly: true });
    const store = sharedStore();
    const clock = (): number => 1_000_000;
    await discovered({ store, protocol: "2026-07-28", clock });
    await discovered({ store, protocol: "2026-07-28", clock });
    expect(listings()).toBe(2);
  });

  it("2026-07-28: a tools/list_changed on the listen stream drops the entry; the next process lists again", async () => {
    server = await startV2HttpServer({ modernOnly: true, toolsListTtlMs: 60_000 });
    const store = sharedStore();
    const clock = (): number => 1_000_000;
    const first = await discovered({ store, protocol: "2026-07-28", clock });
    server.addTool("fresh");
    await expect.poll(() => first.discoveredTools.map((tool) => tool.name)).toContain("fresh");
    const before = listings();
    const second = await discovered({ store, protocol: "2026-07-28", clock });
    expect(second.discoveredTools.map((tool) => tool.name)).toContain("fresh");
    // Listed at most once more: by whichever of the two refreshed after the change, then cached.
    expect(listings() - before).toBeLessThanOrEqual(1);
  });

  it("2026-07-28: a listing the server marks private is kept out of a store several users share", async () => {
    server = await startV2HttpServer({ modernOnly: true, toolsListTtlMs: 60_000, toolsListCacheScope: "private" });
    const clock = (): number => 1_000_000;
    const team = sharedStore(true);
    await discovered({ store: team, protocol: "2026-07-28", clock });
    await discovered({ store: team, protocol: "2026-07-28", clock });
    expect(listings()).toBe(2);
    // A store of one user (the file store's kind) keeps it.
    const mine = sharedStore(false);
    await discovered({ store: mine, protocol: "2026-07-28", clock });
    await discovered({ store: mine, protocol: "2026-07-28", clock });
    expect(listings()).toBe(3);
  });

  it("2025 era through the v2 client: served from the cache for maxAgeMs (2025 results carry no hint)", async () => {
    server = await startV2HttpServer();
    const store = sharedStore();
    let now = 1_000_000;
    const clock = (): number => now;
    const first = await discovered({ store, protocol: "2025", clock });
    expect(first.protocolEra).toBe("2025");
    expect(listings()).toBe(1);
    expect(store.ttls).toEqual([60_000]);
    now += 59_000;
    await discovered({ store, protocol: "2025", clock });
    expect(listings()).toBe(1);
    now += 2_000;
    await discovered({ store, protocol: "2025", clock });
    expect(listings()).toBe(2);
  });
});
