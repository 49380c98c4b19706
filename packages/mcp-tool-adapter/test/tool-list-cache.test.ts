/* eslint-disable @typescript-eslint/no-deprecated -- the low-level Server is the one that can put a 2026-07-28 hint into a tools/list result */
import { chmod, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import {
  createInMemoryTestServer,
  createTempDirectory,
  everythingStdioServer,
  startEverythingHttp,
  type EverythingHttpServer,
  type InMemoryTestServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDefaultTransport, type MCPServerConfig } from "../src/index.js";
import { createFileCacheStore, type CacheStore } from "../src/cache-entry.js";

const LIST_CHANGED = "notifications/tools/list_changed";

/** A transport that notes the method of every request the client sends: what went over the wire. */
function counting(inner: Transport, methods: string[]): Transport {
  const wrapper: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message, options) => {
      if ("method" in message && "id" in message) methods.push(message.method);
      return inner.send(message, options);
    },
  };
  inner.onmessage = (message, extra) => {
    // Noted too: a server may change its tools (server-everything does, as it registers the tools a
    // client's capabilities allow), and a refresh after it is a listing the cache must not prevent.
    if ("method" in message && message.method === LIST_CHANGED) methods.push(LIST_CHANGED);
    wrapper.onmessage?.(message, extra);
  };
  inner.onclose = () => wrapper.onclose?.();
  inner.onerror = (error) => wrapper.onerror?.(error);
  return wrapper;
}

let directory: TempDirectory;
let store: CacheStore;
const adapters: MCPToolAdapter[] = [];
const cleanups: (() => Promise<void>)[] = [];

beforeEach(async () => {
  directory = await createTempDirectory("tool-list-cache-");
  store = createFileCacheStore({ directory: directory.path });
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await directory.remove();
});

interface Run {
  adapter: MCPToolAdapter;
  methods: string[];
  debug: string[];
}

/** A new adapter (as a new process would make) for `config`, with the file cache in this test's directory. */
function adapterFor(config: MCPServerConfig, transport: () => Transport | Promise<Transport>, extra = {}): Run {
  const methods: string[] = [];
  const debug: string[] = [];
  const adapter = new MCPToolAdapter(config, {
    transport: async () => counting(await transport(), methods),
    toolListCache: { store, ...extra },
    logger: { debug: (message) => debug.push(message) },
  });
  adapters.push(adapter);
  return { adapter, methods, debug };
}

const listings = (methods: readonly string[]): number => methods.filter((method) => method === "tools/list").length;
/** The listings sent before the server said its tools changed: the ones the cache is for. */
const unpromptedListings = (methods: readonly string[]): number => {
  const changed = methods.indexOf(LIST_CHANGED);
  return listings(changed === -1 ? methods : methods.slice(0, changed));
};

describe("tool lists cached across processes: server-everything over stdio", () => {
  const config: MCPServerConfig = { name: "everything", transport: "stdio", ...everythingStdioServer() };
  const transport = () => createStdioTransport(everythingStdioServer());

  it("a warm start lists nothing on the wire, and the cached schemas still validate calls", async () => {
    const cold = adapterFor(config, transport);
    await cold.adapter.connect();
    const listed = await cold.adapter.discoverTools();
    expect(listings(cold.methods)).toBeGreaterThanOrEqual(1);
    await cold.adapter.disconnect();

    const warm = adapterFor(config, transport);
    await warm.adapter.connect();
    const cached = await warm.adapter.discoverTools();
    expect(cached.map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    const echoed = await warm.adapter.invoke("echo", { message: "from the cache" });
    expect(echoed).toMatchObject({ success: true });
    const refused = await warm.adapter.invoke("echo", { message: 42 });
    expect(refused).toMatchObject({ success: false, errorKind: "validation" });
    expect(unpromptedListings(warm.methods), warm.methods.join(",")).toBe(0);
    expect(warm.methods).toContain("tools/call");
    expect(warm.debug.some((line) => line.includes("tools listed from the cache"))).toBe(true);
  });

  it("a corrupt cache file is ignored with a debug log, and the next listing replaces it", async () => {
    const cold = adapterFor(config, transport);
    await cold.adapter.connect();
    await cold.adapter.discoverTools();
    await cold.adapter.disconnect();
    const [file] = await readdir(directory.path);
    await writeFile(join(directory.path, file ?? ""), "{ not json");

    const next = adapterFor(config, transport);
    await next.adapter.connect();
    expect((await next.adapter.discoverTools()).length).toBeGreaterThan(0);
    expect(listings(next.methods)).toBeGreaterThanOrEqual(1);
    expect(next.debug.some((line) => line.includes("not a tool listing"))).toBe(true);
    await next.adapter.disconnect();

    const after = adapterFor(config, transport);
    await after.adapter.connect();
    await after.adapter.discoverTools();
    expect(unpromptedListings(after.methods)).toBe(0);
  });

  it("a cache file others can write is ignored with a debug log", async () => {
    const logged: string[] = [];
    store = createFileCacheStore({ directory: directory.path, logger: { debug: (message) => logged.push(message) } });
    const cold = adapterFor(config, transport);
    await cold.adapter.connect();
    await cold.adapter.discoverTools();
    await cold.adapter.disconnect();
    const [file] = await readdir(directory.path);
    await chmod(join(directory.path, file ?? ""), 0o666);

    const next = adapterFor(config, transport);
    await next.adapter.connect();
    await next.adapter.discoverTools();
    expect(listings(next.methods)).toBeGreaterThanOrEqual(1);
    expect(logged.some((line) => line.includes("others can write it (mode 666)"))).toBe(true);
  });
});

describe("tool lists cached across processes: server-everything over streamable HTTP", () => {
  let server: EverythingHttpServer;
  beforeEach(async () => {
    server = await startEverythingHttp({ mode: "streamableHttp" });
    cleanups.push(() => server.stop());
  });

  it("a warm start lists nothing on the wire", async () => {
    const config: MCPServerConfig = { name: "everything-http", transport: "streamable-http", url: server.url };
    const transport = () => createDefaultTransport(config);
    const cold = adapterFor(config, transport);
    await cold.adapter.connect();
    const listed = await cold.adapter.discoverTools();
    await cold.adapter.disconnect();
    const warm = adapterFor(config, transport);
    await warm.adapter.connect();
    expect((await warm.adapter.discoverTools()).map((tool) => tool.name)).toEqual(listed.map((tool) => tool.name));
    expect(await warm.adapter.invoke("echo", { message: "hi" })).toMatchObject({ success: true });
    expect(listings(cold.methods)).toBeGreaterThanOrEqual(1);
    expect(unpromptedListings(warm.methods)).toBe(0);
  });
});

describe("tool lists cached across processes: identity, list_changed and hints", () => {
  const config: MCPServerConfig = { name: "in-memory", transport: "stdio", command: "in-memory-server" };
  const servers: InMemoryTestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const serverOf = (version: string): InMemoryTestServer => {
    const server = createInMemoryTestServer({ name: "cached", version, tools: [{ name: "first" }] });
    servers.push(server);
    return server;
  };

  it("a server of another version misses the cache", async () => {
    const one = serverOf("1.0.0");
    const first = adapterFor(config, () => one.connect());
    await first.adapter.connect();
    await first.adapter.discoverTools();
    await first.adapter.disconnect();
    const two = serverOf("1.1.0");
    const second = adapterFor(config, () => two.connect());
    await second.adapter.connect();
    await second.adapter.discoverTools();
    expect([listings(first.methods), listings(second.methods)]).toEqual([1, 1]);
    expect(second.debug.some((line) => line.includes("another server identity"))).toBe(true);
  });

  it("tools/list_changed invalidates: the refresh goes to the server, and the next process sees the new list", async () => {
    const server = serverOf("1.0.0");
    const first = adapterFor(config, () => server.connect());
    await first.adapter.connect();
    await first.adapter.discoverTools();
    const changed = new Promise<void>((resolve) => first.adapter.onToolsChanged(() => resolve()));
    await server.addTool({ name: "second" });
    await changed;
    expect(first.adapter.discoveredTools.map((tool) => tool.name)).toEqual(["first", "second"]);
    expect(listings(first.methods)).toBe(2);
    await first.adapter.disconnect();

    const next = adapterFor(config, () => server.connect());
    await next.adapter.connect();
    expect((await next.adapter.discoverTools()).map((tool) => tool.name)).toEqual(["first", "second"]);
    expect(listings(next.methods)).toBe(0);
  });

  it("never serves a listing past its age limit (the clock is injected)", async () => {
    const server = serverOf("1.0.0");
    let now = 1_000_000;
    const clock = () => now;
    const first = adapterFor(config, () => server.connect(), { clock, maxAgeMs: 60_000 });
    await first.adapter.connect();
    await first.adapter.discoverTools();
    await first.adapter.disconnect();
    now += 60_000;
    const later = adapterFor(config, () => server.connect(), { clock, maxAgeMs: 60_000 });
    await later.adapter.connect();
    await later.adapter.discoverTools();
    expect(listings(later.methods)).toBe(1);
    expect(later.debug.some((line) => line.includes("trusted for 60000 ms"))).toBe(true);
  });

  it("never serves a listing past the server's ttlMs hint (protocol 2026-07-28 results carry one)", async () => {
    let now = 1_000_000;
    const clock = () => now;
    // A low-level SDK server whose tools/list result carries the 2026-07-28 caching hint.
    const hinted = async (ttlMs: number): Promise<Transport> => {
      const server = new Server({ name: "hinted", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [{ name: "t", inputSchema: { type: "object" } }],
        ttlMs,
        cacheScope: "private",
      }));
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      cleanups.push(() => server.close());
      return client;
    };
    const run = async (ttlMs: number): Promise<number> => {
      const { adapter, methods } = adapterFor(config, () => hinted(ttlMs), { clock, maxAgeMs: 3_600_000 });
      await adapter.connect();
      await adapter.discoverTools();
      await adapter.disconnect();
      return listings(methods);
    };
    // ttlMs 0: never cached, although maxAgeMs would allow an hour.
    expect([await run(0), await run(0)]).toEqual([1, 1]);
    // ttlMs 5000: served within it, listed again once it ran out.
    expect(await run(5_000)).toBe(1);
    now += 4_999;
    expect(await run(5_000)).toBe(0);
    now += 1;
    expect(await run(5_000)).toBe(1);
  });
});

describe("a stale cached listing: the tool set changed without a version bump", () => {
  const config: MCPServerConfig = { name: "in-memory", transport: "stdio", command: "same-server" };
  const servers: InMemoryTestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  // Same serverInfo every time: the fingerprint cannot tell these servers apart.
  const serverWith = (...names: string[]): InMemoryTestServer => {
    const server = createInMemoryTestServer({ name: "same", version: "1.0.0", tools: names.map((name) => ({ name })) });
    servers.push(server);
    return server;
  };
  const warmed = async (server: InMemoryTestServer): Promise<void> => {
    const first = adapterFor(config, () => server.connect());
    await first.adapter.connect();
    await first.adapter.discoverTools();
    await first.adapter.disconnect();
  };

  it("a call naming a tool the cached listing lacks lists once on the server, then calls it", async () => {
    await warmed(serverWith("first"));
    const grown = serverWith("first", "second");
    const next = adapterFor(config, () => grown.connect());
    await next.adapter.connect();
    expect((await next.adapter.discoverTools()).map((tool) => tool.name)).toEqual(["first"]);
    expect(listings(next.methods)).toBe(0);
    const changed = new Promise<string[]>((resolve) => next.adapter.onToolsChanged((event) => resolve(event.added)));
    expect(await next.adapter.invoke("second", { a: 1 })).toMatchObject({ success: true });
    expect(await changed).toEqual(["second"]);
    expect(next.adapter.discoveredTools.map((tool) => tool.name)).toEqual(["first", "second"]);
    // A name the server lacks too: not_found after that one listing, no more.
    expect(await next.adapter.invoke("third", {})).toMatchObject({ success: false, errorKind: "not_found" });
    expect(listings(next.methods)).toBe(1);
    await next.adapter.disconnect();

    // The listing went back into the cache: the next process sees both tools without listing.
    const after = adapterFor(config, () => grown.connect());
    await after.adapter.connect();
    expect((await after.adapter.discoverTools()).map((tool) => tool.name)).toEqual(["first", "second"]);
    expect(listings(after.methods)).toBe(0);
  });

  it("a tool the server no longer knows (a JSON-RPC error) gives not_found after one listing", async () => {
    await warmed(serverWith("first", "second"));
    const shrunk = serverWith("second");
    const next = adapterFor(config, () => shrunk.connect());
    await next.adapter.connect();
    const result = await next.adapter.invoke("first", {});
    expect(result).toMatchObject({ success: false, errorKind: "not_found" });
    expect(listings(next.methods)).toBe(1);
    expect(next.methods.filter((method) => method === "tools/call")).toHaveLength(1);
    expect(next.adapter.discoveredTools.map((tool) => tool.name)).toEqual(["second"]);
    // The fresh listing is not from the cache: an unknown name now answers at once.
    expect(await next.adapter.invoke("first", {})).toMatchObject({ errorKind: "not_found" });
    expect(listings(next.methods)).toBe(1);
  });

  it("a tool the SDK's McpServer no longer knows (an isError result) gives not_found after one listing", async () => {
    const sdkServer = async (names: string[]): Promise<Transport> => {
      const server = new McpServer({ name: "sdk-same", version: "1.0.0" });
      for (const name of names) server.registerTool(name, {}, () => ({ content: [{ type: "text", text: name }] }));
      const [client, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      cleanups.push(() => server.close());
      return client;
    };
    const first = adapterFor(config, () => sdkServer(["old", "kept"]));
    await first.adapter.connect();
    await first.adapter.discoverTools();
    await first.adapter.disconnect();

    const next = adapterFor(config, () => sdkServer(["kept"]));
    await next.adapter.connect();
    expect(await next.adapter.invoke("kept", {})).toMatchObject({ success: true });
    expect(listings(next.methods)).toBe(0);
    const result = await next.adapter.invoke("old", {});
    expect(result).toMatchObject({ success: false, errorKind: "not_found" });
    expect(result.error).toContain('Tool "old" not found');
    expect(listings(next.methods)).toBe(1);
  });
});
