// Cucumber configuration for the acceptance suite. The runner is started by the package's
// `test` script with tsx loaded (NODE_OPTIONS) so step definitions stay TypeScript and
// resolve workspace packages from source through the `@mcp-tool-adapter/source` condition.
// MCP_TEST_REPORTS_DIR (absolute) when the root test script runs several Node versions side by side.
const reportsDir = process.env.MCP_TEST_REPORTS_DIR ?? "../../reports";

// Scenarios tagged @node22 use runtimes that need Node.js 22 (the AI SDK 7, the OpenAI Agents
// SDK through openai 7). On an older Node they are left out of the run, not skipped: they are
// not in the report at all, and the Node 22+ leg of CI runs them.
const nodeMajor = Number(process.versions.node.split(".")[0]);

/**
 * One run of every scenario on one engine (the world parameter `engine`, read by
 * src/support/engine.ts wherever a step makes an adapter or runs the CLI). Each engine writes its
 * own reports, so the root test script counts both runs.
 */
function onEngine(engine, reportName, tags = nodeMajor < 22 ? "not @node22" : undefined) {
  return {
    paths: ["../../features/**/*.feature"],
    ...(tags !== undefined ? { tags } : {}),
    import: ["src/support/**/*.ts", "src/steps/**/*.ts"],
    // Undefined or pending steps fail the run instead of being reported as "not run".
    strict: true,
    worldParameters: { engine },
    format: ["progress", `json:${reportsDir}/${reportName}.json`, `html:${reportsDir}/${reportName}.html`],
    formatOptions: { snippetInterface: "async-await" },
  };
}

/**
 * The adapter's default engine (SDK 1.x): `pnpm test`. MCP_TEST_DEFAULT_ENGINE_TAGS narrows the
 * run: CI's second leg (Node 24) sets it to "@node22", since the first leg (Node 20) runs every
 * other scenario on this engine and the second runs them all on engine-2026.
 */
export default onEngine("default", "cucumber", process.env.MCP_TEST_DEFAULT_ENGINE_TAGS || undefined);

/** `@mcp-tool-adapter/engine-2026` (SDK v2 client, `protocol: "auto"`): `pnpm test:engine-2026`. */
export const engine2026 = onEngine("engine-2026", "cucumber-engine-2026");
