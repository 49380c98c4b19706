// An agent's start, as a user writes it with the umbrella package's built dist/: the config file's
// servers connected as one MCPServerSet with the tool-list cache on (the file store, in
// $MCP_TOOL_ADAPTER_CACHE_DIR), and their tools converted for the model (OpenAI's format). Prints
// when the tools were ready (epoch ms, on the same clock as the bench's) and how many there were,
// then closes the set. The listing-cache scenario runs it with a cold and a warm cache.
//
//   node agent-start.mjs <config file>
import { loadConfigFile, MCPServerSet } from "mcp-tool-adapter";
import { createFileCacheStore } from "mcp-tool-adapter/cache";
import { toOpenAITools } from "mcp-tool-adapter/model-tools";

const servers = new MCPServerSet((await loadConfigFile(process.argv[2])).servers, {
  toolListCache: { store: createFileCacheStore() },
});
try {
  const report = await servers.connect();
  // A server that failed fails the run (exit 1), so a side cannot look fast by failing.
  if (!report.ok) throw new Error(`servers not connected: ${report.failed.join(", ")}`);
  const tools = toOpenAITools(servers.registry);
  process.stdout.write(
    `${JSON.stringify({ ready: performance.timeOrigin + performance.now(), tools: tools.length })}\n`,
  );
} finally {
  await servers.close();
}
