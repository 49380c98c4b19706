import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { SUITES, type SuiteName } from "./suites.js";

/** One check the suite made, as it prints them with --verbose. */
export interface ConformanceCheck {
  readonly id: string;
  readonly name: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  readonly description?: string;
  readonly errorMessage?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * A scenario's outcome: passed when no check failed and every warning is a tolerated one (see
 * isToleratedWarning); the suite's own exit status counts only when nothing was tolerated.
 */
export interface ScenarioVerdict {
  readonly scenario: string;
  readonly passed: boolean;
  readonly exitCode: number | null;
  readonly checks: readonly ConformanceCheck[];
  /** The suite's stderr: its summary, and our client's output when it failed. */
  readonly log: string;
}

export interface RunOptions {
  /** The Node that runs the suite and our client (the suite needs Node >= 22). Default: this process's. */
  readonly nodeBinary?: string;
  /** Per scenario, passed to the suite's --timeout (it kills our client after it). */
  readonly timeoutMs?: number;
  /** Which run of the suite (default "0.1.16"); "2026-07-28" is the pre-release at that revision. */
  readonly suite?: SuiteName;
}

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const resolvePackage = createRequire(import.meta.url).resolve;
/** The installed suite's command-line entry (run with a Node >= 22). */
export const suiteCli = (suite: SuiteName): string =>
  join(dirname(resolvePackage(`${SUITES[suite].packageName}/package.json`)), "dist/index.js");
const clientSource = join(packageDir, "src/client.ts");
/** The client bundled by the package's build (`esbuild`, dependencies left as imports). */
const clientBundle = join(packageDir, "dist/client.js");

/**
 * The command the suite starts per scenario: our client. In CI the workspace is built before the
 * tests, so it runs the client's bundle, which loads the umbrella from its dist (what users
 * install): starting it through tsx instead, which transforms the client's files and hooks every
 * import, cost a second of CPU per scenario. Locally it runs the TypeScript source through tsx,
 * with the workspace packages' sources too, so an unbuilt or stale dist cannot hide a change. The
 * suite splits the command on spaces (and runs it through a shell), so no part of it may contain one.
 */
export function clientCommand(nodeBinary: string, fromSource = process.env.CI === undefined): string {
  if (!fromSource && !existsSync(clientBundle)) {
    throw new Error(
      `No conformance client bundle at ${clientBundle}: run "pnpm build" first (CI runs the built client).`,
    );
  }
  const parts = fromSource
    ? [nodeBinary, "--import", "tsx", "--conditions=@mcp-tool-adapter/source", clientSource]
    : [nodeBinary, clientBundle];
  const withSpace = parts.find((part) => /\s/.test(part));
  if (withSpace !== undefined) {
    throw new Error(
      `The conformance suite splits --command on spaces; move the checkout to a path without one (${withSpace})`,
    );
  }
  return parts.join(" ");
}

/** Runs one client scenario of the suite against our client and reads its checks. */
export async function runClientScenario(scenario: string, options: RunOptions = {}): Promise<ScenarioVerdict> {
  const nodeBinary = options.nodeBinary ?? process.execPath;
  const suite = options.suite ?? "0.1.16";
  const args = [
    suiteCli(suite),
    "client",
    ...SUITES[suite].specArgs,
    "--scenario",
    scenario,
    "--command",
    clientCommand(nodeBinary),
    "--verbose",
  ];
  if (options.timeoutMs !== undefined) args.push("--timeout", String(options.timeoutMs));
  const { exitCode, stdout, stderr } = await run(nodeBinary, args);
  const checks = parseChecks(stdout);
  const warnings = checks.filter((check) => check.status === "WARNING");
  const tolerated = warnings.length > 0 && warnings.every(isToleratedWarning);
  const passed =
    (exitCode === 0 || tolerated) &&
    checks.length > 0 &&
    checks.every((check) => check.status !== "FAILURE") &&
    warnings.every(isToleratedWarning);
  return { scenario, passed, exitCode, checks, log: stderr };
}

/** The client scenarios the installed suite offers (`conformance list`), auth ones included. */
export async function listClientScenarios(options: Pick<RunOptions, "nodeBinary" | "suite"> = {}): Promise<string[]> {
  const suite = options.suite ?? "0.1.16";
  const { exitCode, stdout, stderr } = await run(options.nodeBinary ?? process.execPath, [
    suiteCli(suite),
    "list",
    ...SUITES[suite].specArgs,
  ]);
  if (exitCode !== 0) throw new Error(`conformance list exited with ${exitCode}: ${stderr}`);
  // The section's indented entries, up to the next heading (the 0.2 suite lists authorization-server scenarios after it).
  const clientSection = (stdout.split(/^Client scenarios.*$/m)[1] ?? "").split(/^\S/m)[0] ?? "";
  return [...clientSection.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string);
}

/**
 * A timing check that found our client "slightly late" (the suite's own category: after the
 * tolerance, before its "very late" threshold) is a fact about a loaded machine's scheduler, not
 * about the client: on CI's two shared cores a 500 ms retry measured 725 ms. Too early, very late
 * and every other warning still fail.
 */
export function isToleratedWarning(check: ConformanceCheck): boolean {
  return check.status === "WARNING" && check.details?.["slightlyLate"] === true && check.details["veryLate"] !== true;
}

function parseChecks(stdout: string): ConformanceCheck[] {
  const start = stdout.indexOf("[");
  if (start === -1) return [];
  try {
    return JSON.parse(stdout.slice(start)) as ConformanceCheck[];
  } catch {
    return [];
  }
}

/** Runs a command in this package's directory and collects its exit code and output. */
export function run(
  command: string,
  args: string[],
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}
