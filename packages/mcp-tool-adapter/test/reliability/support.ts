import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  expectNoLeakedProcesses,
  hostileServerConfig,
  leakMarkerEnv,
  listDescendantProcesses,
  watchProcessGroup,
  type HostileServerOptions,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import {
  MCPToolAdapter,
  type MCPServerConfig,
  type MCPToolAdapterOptions,
  type MCPToolResult,
} from "../../src/index.js";

/**
 * A stdio server config for the hostile fixture server. Its environment carries the leak
 * checker's marker, so whatever the server leaves behind is found however it got away (the check
 * does not rely on the transport's own way of finding the server's processes).
 */
export function hostileConfig(options: HostileServerOptions = {}, name = "hostile"): MCPServerConfig {
  const { command, args, env } = hostileServerConfig(options);
  return { name, transport: "stdio", command, args, env: { ...leakMarkerEnv(), ...env } };
}

const adapters = new Set<MCPToolAdapter>();

/** An adapter (the umbrella's, so the default stdio transport) that afterEach disconnects. */
export function hostileAdapter(
  options: HostileServerOptions = {},
  adapterOptions: MCPToolAdapterOptions = {},
): MCPToolAdapter {
  return trackAdapter(new MCPToolAdapter(hostileConfig(options), adapterOptions));
}

export function trackAdapter(adapter: MCPToolAdapter): MCPToolAdapter {
  adapters.add(adapter);
  return adapter;
}

/**
 * Counts every process group a server of ours leads (one started with processFamily "group") as
 * ours in the leak check, so a grandchild re-parented after its server died is found even without
 * the leak marker. Servers in the test process's own group ("tagged", the default on Linux) are
 * found through the marker instead; that group holds the test runner and is never watched.
 */
export function watchServerGroups(): void {
  for (const info of listDescendantProcesses()) if (info.pgid === info.pid) watchProcessGroup(info.pgid);
}

/** Connects and watches the new server's process group, when it leads one. */
export async function connectWatched(adapter: MCPToolAdapter, timeoutMs?: number): Promise<void> {
  await adapter.connect(timeoutMs === undefined ? {} : { timeoutMs });
  watchServerGroups();
}

/** The parsed JSON of a result's first text item. */
export function resultJson(result: MCPToolResult): unknown {
  expect(result.error).toBeNull();
  const item = result.data?.content[0] as { type?: string; text?: string } | undefined;
  if (item?.type !== "text" || item.text === undefined)
    throw new Error(`expected a text item, got ${JSON.stringify(result.data)}`);
  return JSON.parse(item.text) as unknown;
}

/** Values the host saw as unhandled rejections or uncaught exceptions while a suite ran. */
export const hostFailures: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  hostFailures.push(reason);
};

/** Sockets and HTTP requests the host opened while a suite ran (reliability suites open none off 127.0.0.1). */
export const networkActivity: { channel: string; detail: string }[] = [];
const NETWORK_CHANNELS = ["net.client.socket", "undici:request:create", "http.client.request.start"] as const;
const onNetwork =
  (channel: string) =>
  (message: unknown): void => {
    networkActivity.push({ channel, detail: describeNetworkMessage(message) });
  };
const networkListeners = new Map(NETWORK_CHANNELS.map((channel) => [channel, onNetwork(channel)]));

function describeNetworkMessage(message: unknown): string {
  const record = message as
    | {
        request?: { origin?: unknown; protocol?: unknown; host?: unknown; path?: unknown };
        socket?: { remoteAddress?: unknown };
      }
    | undefined;
  const request = record?.request;
  // undici's requests carry an origin; node:http's ClientRequest a protocol and a host.
  if (request !== undefined)
    return `${typeof request.origin === "string" ? request.origin : `${String(request.protocol)}//${String(request.host)}`}${String(request.path)}`;
  const address = record?.socket?.remoteAddress;
  return typeof address === "string" ? address : "socket";
}

/**
 * The checks every reliability suite shares: after each test every adapter is disconnected and
 * no process of ours is left; across the suite no unhandled rejection reached the host.
 */
export function useReliabilityChecks(): void {
  beforeAll(() => {
    process.on("unhandledRejection", onUnhandled);
    process.on("uncaughtException", onUnhandled);
    for (const [channel, listener] of networkListeners) subscribe(channel, listener);
  });
  afterEach(async () => {
    await Promise.all([...adapters].map((adapter) => adapter.disconnect().catch(() => undefined)));
    adapters.clear();
    await expectNoLeakedProcesses({ timeoutMs: 10_000 });
    expect(hostFailures, "unhandled rejections or uncaught exceptions in the host").toEqual([]);
  });
  afterAll(() => {
    process.off("unhandledRejection", onUnhandled);
    process.off("uncaughtException", onUnhandled);
    for (const [channel, listener] of networkListeners) unsubscribe(channel, listener);
  });
}

let gcFunction: (() => void) | undefined;

/** A full garbage collection, via --expose-gc when the runner has it, else enabled at run time. */
export function collectGarbage(): void {
  if (gcFunction === undefined) {
    const exposed = (globalThis as { gc?: () => void }).gc;
    if (typeof exposed === "function") {
      gcFunction = exposed;
    } else {
      setFlagsFromString("--expose-gc");
      gcFunction = runInNewContext("gc") as () => void;
    }
  }
  gcFunction();
}
