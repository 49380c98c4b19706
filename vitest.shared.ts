import { basename } from "node:path";
import { defineConfig, type ViteUserConfig } from "vitest/config";

export interface PackageTestOptions {
  /** Minimum line coverage (percent) enforced when run with --coverage. */
  lineCoverage?: number;
  /** Per-test timeout in ms; real-server suites need more than the default. */
  testTimeoutMs?: number;
  /**
   * Whether every test file gets fresh modules (default false: see `isolate` below). For suites
   * that assert on process-wide state (listener counts, event-loop handles) another file's
   * leftovers would count towards.
   */
  isolateFiles?: boolean;
  /**
   * Source files left out of line coverage because they run somewhere this process's v8 coverage
   * cannot see (a browser page); their own suite must drive them there.
   */
  coverageExclude?: readonly string[];
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
      // A worker process runs its test files one after another in one module graph instead of
      // importing (and transforming) the SDK and the workspace's sources afresh for each file,
      // which was most of what a suite spent between files. A worker still runs one file at a
      // time, so leak checks (children of this process) see only the running file's processes.
      isolate: options.isolateFiles ?? false,
      testTimeout: options.testTimeoutMs ?? 15_000,
      hookTimeout: options.testTimeoutMs ?? 15_000,
      reporters: ["default", ["json", { outputFile: `${reportsDir}/vitest-${name}.json` }]],
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        exclude: [...(options.coverageExclude ?? [])],
        reporter: ["text-summary"],
        reportsDirectory: `${reportsDir}/coverage-${name}`,
        ...(options.lineCoverage === undefined ? {} : { thresholds: { lines: options.lineCoverage } }),
      },
    },
  });
}
