import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageFilePath } from "./package-file.js";

/**
 * The config the CLI uses without --config: server-everything and server-memory over stdio,
 * pinned versions started by config/run-server.mjs (an installed copy, else `npx -y`), so they
 * need not be dependencies of this package. Shipped as config/default.json.
 */
export function defaultConfigPath(): string {
  return packageFilePath("config/default.json");
}

/**
 * The variables config/default.json refers to. The file stays a plain `mcpServers` config; these
 * fill its `${...}` references with paths only known at run time. A variable set in the
 * environment wins (e.g. MCP_MEMORY_FILE_PATH to keep the knowledge graph elsewhere).
 * - MCP_TOOL_ADAPTER_NODE: the running Node binary
 * - MCP_TOOL_ADAPTER_RUN_SERVER: config/run-server.mjs, which starts a server package
 * - MCP_MEMORY_FILE_PATH: server-memory's graph file, in the OS temp directory (never inside node_modules)
 */
export function defaultConfigVariables(): Record<string, string> {
  return {
    MCP_TOOL_ADAPTER_NODE: process.execPath,
    MCP_TOOL_ADAPTER_RUN_SERVER: packageFilePath("config/run-server.mjs"),
    MCP_MEMORY_FILE_PATH: join(tmpdir(), "mcp-tool-adapter-memory.jsonl"),
  };
}
