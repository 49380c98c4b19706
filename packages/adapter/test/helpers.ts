import {
  createInMemoryTestServer,
  type InMemoryTestServer,
  type InMemoryTestServerOptions,
} from "@mcp-tool-adapter/test-servers";
import { MCPToolAdapter, type MCPBuiltInEngine, type MCPToolAdapterOptions } from "../src/index.js";

export const STDIO_CONFIG = { name: "test-server", transport: "stdio", command: "node" } as const;

export interface Harness {
  server: InMemoryTestServer;
  adapter: MCPToolAdapter;
}

/** An adapter wired to a fresh in-process server; each connect gets a new session. */
export function createHarness(
  serverOptions: InMemoryTestServerOptions = {},
  adapterOptions: MCPToolAdapterOptions = {},
): Harness {
  const server = createInMemoryTestServer(serverOptions);
  const adapter = new MCPToolAdapter(STDIO_CONFIG, { transport: () => server.connect(), ...adapterOptions });
  return { server, adapter };
}

export async function connectedHarness(
  serverOptions: InMemoryTestServerOptions = {},
  adapterOptions: MCPToolAdapterOptions = {},
): Promise<Harness> {
  const harness = createHarness(serverOptions, adapterOptions);
  await harness.adapter.connect();
  return harness;
}

/** The built-in engines, for a test that must hold on each: the default (undefined) and SDK 1.x's. */
export const BUILT_IN_ENGINES: readonly { engine: MCPBuiltInEngine | undefined }[] = [
  { engine: undefined },
  { engine: "sdk-v1" },
];

/** Resolves after `ms` of real time (for waiting on things that must not happen). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` until true or the deadline; for events with no promise to await. */
export async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("waitFor: condition not met in time");
    await sleep(5);
  }
}
