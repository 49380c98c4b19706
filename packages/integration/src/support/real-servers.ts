import {
  createTempDirectory,
  everythingStdioServer,
  startEverythingHttp,
  startTcpRelay,
  type EverythingHttpServer,
} from "@mcp-tool-adapter/test-servers";
import { createDefaultTransport, MCPToolAdapter, type MCPServerConfig } from "mcp-tool-adapter";
import { createEngine2026Transport } from "@mcp-tool-adapter/engine-2026";
import { adapterOptionsOn } from "./engine.js";
import type { AdapterWorld, RealServerHandle } from "./world.js";

/** The transports the real-server features name. */
export type RealTransport = "stdio" | "sse" | "streamable-http";

const NOTICE_EXIT_MS = 10_000;

/** Makes a fresh temporary directory, removed after the scenario. */
export async function makeTempDir(world: AdapterWorld, prefix: string): Promise<string> {
  const dir = await createTempDirectory(`mcp-tool-adapter-${prefix}-`);
  world.onCleanup(() => dir.remove());
  world.tempDir = dir.path;
  return dir.path;
}

/** An adapter using the default transports of the run's engine (no transport option), disconnected after the scenario. */
export async function connectDefaultAdapter(world: AdapterWorld, config: MCPServerConfig): Promise<MCPToolAdapter> {
  const adapter = new MCPToolAdapter(config, adapterOptionsOn(world.engine));
  world.onCleanup(() => adapter.disconnect());
  world.adapter = adapter;
  await adapter.connect();
  return adapter;
}

/** server-everything behind the chosen transport, restartable through `world.realServer`. */
export async function connectEverything(world: AdapterWorld, transport: RealTransport): Promise<MCPToolAdapter> {
  return transport === "stdio" ? connectEverythingStdio(world) : connectEverythingHttp(world, transport);
}

/**
 * Over HTTP the adapter talks to a TCP relay in front of the server, so a restarted server
 * (on whatever free port it gets) is reached at the same URL, as after a real restart.
 */
async function connectEverythingHttp(
  world: AdapterWorld,
  transport: "sse" | "streamable-http",
): Promise<MCPToolAdapter> {
  const mode = transport === "sse" ? "sse" : "streamableHttp";
  const start = async (): Promise<EverythingHttpServer> => {
    const server = await startEverythingHttp({ mode });
    world.onCleanup(() => server.stop());
    return server;
  };
  let server = await start();
  const relay = await startTcpRelay(server.port);
  world.onCleanup(() => relay.close());
  world.realServer = {
    description: `server-everything (${mode})`,
    async restart() {
      await server.stop();
      relay.cutConnections();
      server = await start();
      relay.retarget(server.port);
    },
  };
  const url = new URL(server.url);
  url.port = String(relay.port);
  return connectDefaultAdapter(world, { name: "everything", transport, url: url.href });
}

/**
 * Over stdio the adapter still builds its transports with its engine's default
 * (`createDefaultTransport`, or `createEngine2026Transport` on engine-2026), only observed, so a
 * restart can kill the very process the adapter spawned; the reconnect then spawns a new one.
 */
async function connectEverythingStdio(world: AdapterWorld): Promise<MCPToolAdapter> {
  // Whichever engine made it: both SDKs' stdio transports expose the child's pid.
  const spawned: object[] = [];
  const adapter = new MCPToolAdapter(
    { name: "everything", transport: "stdio", ...everythingStdioServer() },
    adapterOptionsOn(
      world.engine,
      {
        transport: async (config) => {
          const created = await createDefaultTransport(config);
          spawned.push(created);
          return created;
        },
      },
      (config) => {
        const created = createEngine2026Transport(config);
        spawned.push(created);
        return created;
      },
    ),
  );
  world.onCleanup(() => adapter.disconnect());
  world.adapter = adapter;
  const handle: RealServerHandle = {
    description: "server-everything (stdio)",
    async restart() {
      const pid = processId(spawned.at(-1));
      process.kill(pid, "SIGKILL");
      await waitFor(
        () => !adapter.isConnected,
        NOTICE_EXIT_MS,
        `the adapter to notice that server process ${pid} died`,
      );
    },
  };
  world.realServer = handle;
  await adapter.connect();
  return adapter;
}

function processId(transport: object | undefined): number {
  const pid = (transport as { pid?: unknown } | undefined)?.pid;
  if (typeof pid !== "number") throw new Error("The stdio transport exposes no pid: is the server running?");
  return pid;
}

/** Polls `condition` every 20 ms until it holds, failing with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
