import { basename } from "node:path";
import { defineConfig, type ViteUserConfig } from "vitest/config";

export interface PackageTestOptions {
  /** Minimum line coverage (percent) enforced when run with --coverage. */
  lineCoverage?: number;
  /** Per-test timeout in ms; real-server suites need more than the default. */
  testTimeoutMs?: number;
}

/**
 * The one vitest config every package uses: tests run from source through the
 * `@mcp-tool-adapter/source` export condition, and each run leaves a JSON report in
 * reports/ so the root test script can add up every runner.
 */
/**
 * Where runners leave their reports: reports/ at the repository root, or MCP_TEST_REPORTS_DIR
 * (absolute) when the root test script runs several Node versions side by side.
 */
const reportsDir = process.env.MCP_TEST_REPORTS_DIR ?? "../../reports";

export function packageTestConfig(packageDir: string, options: PackageTestOptions = {}): ViteUserConfig {
  const name = basename(packageDir);
  return defineConfig({
    resolve: { conditions: ["@mcp-tool-adapter/source"] },
    ssr: { resolve: { conditions: ["@mcp-tool-adapter/source"] } },
    test: {
      root: packageDir,
      include: ["test/**/*.test.ts"],
      testTimeout: options.testTimeoutMs ?? 15_000,
      hookTimeout: options.testTimeoutMs ?? 15_000,
      reporters: ["default", ["json", { outputFile: `${reportsDir}/vitest-${name}.json` }]],
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        reporter: ["text-summary"],
        reportsDirectory: `${reportsDir}/coverage-${name}`,
        ...(options.lineCoverage === undefined ? {} : { thresholds: { lines: options.lineCoverage } }),
      },
    },
  });
}
