import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The config the CLI uses without --config: server-everything and server-memory over stdio,
 * both dependencies of this package. Shipped as config/default.json (src/cli and dist/cli sit
 * at the same depth, so one relative URL serves both).
 */
export const DEFAULT_CONFIG_PATH: string = fileURLToPath(new URL("../../config/default.json", import.meta.url));

/**
 * The variables config/default.json refers to. The file stays a plain `mcpServers` config; these
 * fill its `${...}` references with paths only known at run time. A variable set in the
 * environment wins (e.g. MCP_MEMORY_FILE_PATH to keep the knowledge graph elsewhere).
 * - MCP_TOOL_ADAPTER_NODE: the running Node binary
 * - MCP_SERVER_EVERYTHING_ENTRY, MCP_SERVER_MEMORY_ENTRY: the servers' entry scripts, resolved
 *   from this package's dependencies
 * - MCP_MEMORY_FILE_PATH: server-memory's graph file, in the OS temp directory (never inside node_modules)
 */
export function defaultConfigVariables(): Record<string, string> {
  return {
    MCP_TOOL_ADAPTER_NODE: process.execPath,
    MCP_SERVER_EVERYTHING_ENTRY: packageBinEntry("@modelcontextprotocol/server-everything"),
    MCP_SERVER_MEMORY_ENTRY: packageBinEntry("@modelcontextprotocol/server-memory"),
    MCP_MEMORY_FILE_PATH: join(tmpdir(), "mcp-tool-adapter-memory.jsonl"),
  };
}

const requireFromHere = createRequire(import.meta.url);

/** Absolute path of a package's bin script, found through its package.json (servers export no entry). */
function packageBinEntry(packageName: string): string {
  const manifestPath = requireFromHere.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
  if (bin === undefined) throw new Error(`${packageName} declares no "bin" in ${manifestPath}; cannot start it. Reinstall mcp-tool-adapter.`);
  return join(dirname(manifestPath), bin);
}
