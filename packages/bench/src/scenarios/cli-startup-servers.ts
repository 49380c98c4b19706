import { join } from "node:path";
import { everythingStdioServer, filesystemStdioServer, memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import type { StartupTarget } from "./cli-startup-sides.js";

/**
 * The published servers `call` is measured against (from the npm registry, installed through
 * test-servers), each with a cheap read-only tool: what users run, where the probe server's
 * bare Node start-up is the one case no Node CLI can bring within 1.2×.
 */
export function publishedStartupTargets(directory: string): StartupTarget[] {
  const everything = everythingStdioServer();
  const memory = memoryStdioServer(join(directory, "memory.json"));
  const filesystem = filesystemStdioServer([directory]);
  return [
    { name: "everything", ...everything, tool: "echo", arguments: { message: "hi" } },
    { name: "memory", ...memory, tool: "read_graph", arguments: {} },
    { name: "filesystem", ...filesystem, tool: "list_allowed_directories", arguments: {} },
  ];
}
