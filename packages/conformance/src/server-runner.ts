import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run, suiteCli, type ConformanceCheck } from "./runner.js";

/** One server scenario's outcome: passed when it made checks and none failed or warned. */
export interface ServerScenarioVerdict {
  readonly scenario: string;
  readonly passed: boolean;
  readonly checks: readonly ConformanceCheck[];
}

export interface ServerRunOptions {
  /** The Node that runs the suite (it needs Node >= 22). Default: this process's. */
  readonly nodeBinary?: string;
}

/**
 * Runs every active server scenario of the suite (0.1.16) against the MCP server at `url`, in one
 * run of the suite, and reads each scenario's checks from the results directory it writes
 * (`server-<scenario>-<timestamp>/checks.json`), so no scenario depends on parsing its printout.
 */
export async function runServerScenarios(
  url: string,
  options: ServerRunOptions = {},
): Promise<Map<string, ServerScenarioVerdict>> {
  const output = await mkdtemp(join(tmpdir(), "conformance-server-"));
  try {
    const { exitCode, stderr } = await run(options.nodeBinary ?? process.execPath, [
      suiteCli("0.1.16"),
      "server",
      "--url",
      url,
      "-o",
      output,
    ]);
    const verdicts = new Map<string, ServerScenarioVerdict>();
    for (const entry of await readdir(output)) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
      if (scenario === undefined) continue;
      const checks = JSON.parse(await readFile(join(output, entry, "checks.json"), "utf8")) as ConformanceCheck[];
      const passed =
        checks.length > 0 && checks.every((check) => check.status !== "FAILURE" && check.status !== "WARNING");
      verdicts.set(scenario, { scenario, passed, checks });
    }
    if (verdicts.size === 0) throw new Error(`conformance server wrote no results (exit ${exitCode}): ${stderr}`);
    return verdicts;
  } finally {
    await rm(output, { recursive: true, force: true });
  }
}
