// Cucumber configuration for the acceptance suite. The runner is started by the package's
// `test` script with tsx loaded (NODE_OPTIONS) so step definitions stay TypeScript and
// resolve workspace packages from source through the `@mcp-tool-adapter/source` condition.
// MCP_TEST_REPORTS_DIR (absolute) when the root test script runs several Node versions side by side.
const reportsDir = process.env.MCP_TEST_REPORTS_DIR ?? "../../reports";

export default {
  paths: ["../../features/**/*.feature"],
  import: ["src/support/**/*.ts", "src/steps/**/*.ts"],
  // Undefined or pending steps fail the run instead of being reported as "not run".
  strict: true,
  format: [
    "progress",
    `json:${reportsDir}/cucumber.json`,
    `html:${reportsDir}/cucumber.html`,
  ],
  formatOptions: { snippetInterface: "async-await" },
};
