/**
 * `pnpm bench`: the adapter against the raw MCP SDK client. Prints the results table to stdout,
 * progress to stderr, and writes the JSON report (default reports/bench.json at the repo root).
 * The exit code is 0 whether targets pass or not: the bench measures, it does not gate.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { formatReport } from "./format-table.js";
import { runBench } from "./run-bench.js";
import { BenchUsageError, parseBenchArgs } from "./settings.js";

const DEFAULT_OUT_FILE = fileURLToPath(new URL("../../../reports/bench.json", import.meta.url));

try {
  const options = parseBenchArgs(process.argv.slice(2), DEFAULT_OUT_FILE);
  const report = await runBench({
    settings: options.settings,
    scenarios: options.scenarios,
    calibrate: options.calibrate,
    peers: options.peers,
    progress: (message) => process.stderr.write(`[bench] ${message}\n`),
  });
  await mkdir(dirname(options.outFile), { recursive: true });
  await writeFile(options.outFile, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatReport(report)}\n\nJSON report: ${options.outFile}\n`);
} catch (error) {
  process.stderr.write(
    `${error instanceof BenchUsageError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = error instanceof BenchUsageError ? 2 : 1;
}
