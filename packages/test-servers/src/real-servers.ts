import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** The shape of a stdio server config (command, args, env, cwd) without depending on transport-stdio. */
export interface StdioLaunchConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

const requireFromHere = createRequire(import.meta.url);

/** Absolute path of a package's single `bin` script, resolved from test-servers' own dependencies. */
function binEntry(packageName: string): string {
  const manifestPath = requireFromHere.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${packageName} declares no bin entry in ${manifestPath}; cannot launch it`);
  return join(dirname(manifestPath), bin);
}

/** Entry scripts of the real npm MCP servers, run with `node <entry>`. */
export const REAL_SERVER_ENTRIES = {
  everything: binEntry("@modelcontextprotocol/server-everything"),
  filesystem: binEntry("@modelcontextprotocol/server-filesystem"),
  memory: binEntry("@modelcontextprotocol/server-memory"),
} as const;

/** server-everything over stdio. Never call its `get-env` or `gzip-file-as-resource` tools in tests. */
export function everythingStdioServer(): StdioLaunchConfig {
  return { command: process.execPath, args: [REAL_SERVER_ENTRIES.everything, "stdio"] };
}

/** server-filesystem limited to `allowedDirectories` (at least one). */
export function filesystemStdioServer(allowedDirectories: readonly string[]): StdioLaunchConfig {
  if (allowedDirectories.length === 0) throw new Error("filesystemStdioServer needs at least one allowed directory");
  return { command: process.execPath, args: [REAL_SERVER_ENTRIES.filesystem, ...allowedDirectories] };
}

/** server-memory keeping its knowledge graph in `memoryFilePath` (use a temp file, see createTempDirectory). */
export function memoryStdioServer(memoryFilePath: string): StdioLaunchConfig {
  return { command: process.execPath, args: [REAL_SERVER_ENTRIES.memory], env: { MEMORY_FILE_PATH: memoryFilePath } };
}

export interface TempDirectory {
  readonly path: string;
  remove(): Promise<void>;
}

/** A fresh directory under the OS temp dir; `remove()` deletes it and everything in it. */
export async function createTempDirectory(prefix = "mcp-tool-adapter-"): Promise<TempDirectory> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
