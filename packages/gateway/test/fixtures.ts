import { writeFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { afterAll, beforeAll } from "vitest";
import { createGateway, type Gateway } from "../src/index.js";
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

/** A gateway in this process over real upstreams, for one test file: started before its tests, closed after them. */
export interface GatewayForFile {
  readonly gateway: Gateway;
  readonly upstreams: Upstreams;
}

export function gatewayForFile(names: Parameters<typeof realUpstreams>[0]): GatewayForFile {
  let started: GatewayForFile | undefined;
  beforeAll(async () => {
    const upstreams = await realUpstreams(names);
    const gateway = createGateway({ servers: upstreams.servers });
    started = { gateway, upstreams };
    await gateway.start();
  }, 120_000);
  afterAll(async () => {
    await started?.gateway.close();
    await started?.upstreams.remove();
  }, 60_000);
  const current = (): GatewayForFile => {
    if (started === undefined) throw new Error("the gateway starts in beforeAll: use it inside a test");
    return started;
  };
  return {
    get gateway() {
      return current().gateway;
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
