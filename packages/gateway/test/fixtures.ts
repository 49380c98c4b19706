import { writeFile } from "node:fs/promises";
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
