// Cucumber configuration for the acceptance suite. The runner is started by the package's
// `test` script with tsx loaded (NODE_OPTIONS) so step definitions stay TypeScript and
// resolve workspace packages from source through the `@mcp-tool-adapter/source` condition.
const reportsDir = "../../reports";

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
