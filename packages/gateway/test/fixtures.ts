import { writeFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, expect } from "vitest";
import {
  createGateway,
  listenHttp,
  type Gateway,
  type GatewayHttpOptions,
  type GatewayHttpServer,
  type GatewayOptions,
} from "../src/index.js";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { ServerEntries } from "mcp-tool-adapter";
import {
  createTempDirectory,
  everythingStdioServer,
  filesystemStdioServer,
  memoryStdioServer,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";

/** The three real upstream servers from the npm registry, over stdio, with their files in a temp directory. */
export interface Upstreams {
  readonly servers: ServerEntries;
  readonly directory: TempDirectory;
  /** A config file (mcpServers JSON) naming the same servers, for `mcp-tool-adapter serve`. */
  readonly configFile: string;
  remove(): Promise<void>;
}

export async function realUpstreams(
  names: readonly ("everything" | "memory" | "filesystem")[] = ["everything", "memory", "filesystem"],
): Promise<Upstreams> {
  const directory = await createTempDirectory("gateway-test-");
  await writeFile(join(directory.path, "hello.txt"), "hello from the filesystem server\n");
  const all = {
    everything: everythingStdioServer(),
    memory: memoryStdioServer(join(directory.path, "memory.jsonl")),
    filesystem: filesystemStdioServer([directory.path]),
  };
  const servers: ServerEntries = Object.fromEntries(names.map((name) => [name, { transport: "stdio", ...all[name] }]));
  const configFile = join(directory.path, "mcp.json");
  await writeFile(
    configFile,
    JSON.stringify({ mcpServers: Object.fromEntries(names.map((name) => [name, all[name]])) }, null, 2),
  );
  return { servers, directory, configFile, remove: () => directory.remove() };
}

/** `node bin/mcp-tool-adapter.mjs`: the CLI from source (a checkout), as a host would start it. */
export const CLI_BIN = fileURLToPath(new URL("../../mcp-tool-adapter/bin/mcp-tool-adapter.mjs", import.meta.url));
/** The gateway package's own directory: the CLI finds `@mcp-tool-adapter/gateway` from here. */
export const GATEWAY_DIR = fileURLToPath(new URL("..", import.meta.url));

/**
 * Registers `start` in beforeAll and `stop` in afterAll of the current file or describe block, and
 * returns a reader of what `start` made (it throws outside a test, before beforeAll ran).
 */
function startedForFile<T>(start: () => Promise<T>, stop: (started: T) => Promise<void>): () => T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  }, 120_000);
  afterAll(async () => {
    if (started !== undefined) await stop(started);
  }, 60_000);
  return () => {
    if (started === undefined) throw new Error("the gateway starts in beforeAll: use it inside a test");
    return started;
  };
}

/** A gateway in this process over real upstreams, for one test file: started before its tests, closed after them. */
export interface GatewayForFile {
  readonly gateway: Gateway;
  readonly upstreams: Upstreams;
}

export function gatewayForFile(names: Parameters<typeof realUpstreams>[0]): GatewayForFile {
  const current = startedForFile(
    async () => {
      const upstreams = await realUpstreams(names);
      const gateway = createGateway({ servers: upstreams.servers });
      await gateway.start();
      return { gateway, upstreams };
    },
    async ({ gateway, upstreams }) => {
      await gateway.close();
      await upstreams.remove();
    },
  );
  return {
    get gateway() {
      return current().gateway;
    },
    get upstreams() {
      return current().upstreams;
    },
  };
}

/** A started gateway listening on streamable HTTP (127.0.0.1, a free port). */
export interface ServedOverHttp {
  readonly gateway: Gateway;
  readonly http: GatewayHttpServer;
  /** Stops listening, then closes the gateway and its upstreams. */
  close(): Promise<void>;
}

/** Starts a gateway (every upstream must connect) and listens on HTTP with `http`'s options; closes it again if either fails. */
export async function serveOverHttp(options: GatewayOptions, http: GatewayHttpOptions = {}): Promise<ServedOverHttp> {
  const gateway = createGateway(options);
  let listening: GatewayHttpServer;
  try {
    const report = await gateway.start();
    expect(report.failed).toEqual([]);
    listening = await listenHttp(gateway, http);
  } catch (error) {
    await gateway.close();
    throw error;
  }
  return {
    gateway,
    http: listening,
    close: async () => {
      await listening.close();
      await gateway.close();
    },
  };
}

/** A gateway on HTTP for one test file (or describe block), made from `options()` when its beforeAll runs. */
export function servedOverHttpForFile(
  options: () => GatewayOptions,
  http: GatewayHttpOptions = {},
): Omit<ServedOverHttp, "close"> {
  const current = startedForFile(
    () => serveOverHttp(options(), http),
    (served) => served.close(),
  );
  return {
    get gateway() {
      return current().gateway;
    },
    get http() {
      return current().http;
    },
  };
}

/** What `httpGatewayForFile` starts: a gateway over real upstreams, on HTTP. */
export interface HttpGatewayForFile extends GatewayForFile {
  readonly http: GatewayHttpServer;
}

export interface HttpGatewayForFileOptions {
  /** Which real upstreams (all three when left out). */
  readonly upstreams?: Parameters<typeof realUpstreams>[0];
  /** The gateway's options besides `servers`. */
  readonly gateway?: Omit<GatewayOptions, "servers">;
  readonly http?: GatewayHttpOptions;
}

/** A gateway over real upstreams on HTTP for one test file (or describe block): started before its tests, closed after. */
export function httpGatewayForFile(options: HttpGatewayForFileOptions = {}): HttpGatewayForFile {
  const current = startedForFile(
    async () => {
      const upstreams = await realUpstreams(options.upstreams);
      const served = await serveOverHttp({ ...options.gateway, servers: upstreams.servers }, options.http).catch(
        async (error: unknown) => {
          await upstreams.remove();
          throw error;
        },
      );
      return { upstreams, served };
    },
    async ({ upstreams, served }) => {
      await served.close();
      await upstreams.remove();
    },
  );
  return {
    get gateway() {
      return current().served.gateway;
    },
    get http() {
      return current().served.http;
    },
    get upstreams() {
      return current().upstreams;
    },
  };
}

/** The non-empty lines written to `stream` so far, kept up to date as it is written. */
export function linesOf(stream: Readable): string[] {
  const lines: string[] = [];
  let buffered = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop() ?? "";
    lines.push(...parts.filter((line) => line.length > 0));
  });
  return lines;
}
