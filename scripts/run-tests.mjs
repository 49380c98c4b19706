#!/usr/bin/env node
// Runs every test runner through turbo, then adds up what each one reported in
// reports/ into the single closing line CI reads: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const reportsDir = join(root, "reports");
rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

const extraArgs = process.argv.slice(2);
const turbo = spawnSync(
  "pnpm",
  ["exec", "turbo", "run", "test", "--concurrency=2", "--output-logs=full", "--continue", ...extraArgs],
  { cwd: root, stdio: "inherit", env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env } },
);

let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];

for (const file of readdirSync(reportsDir).filter((f) => f.startsWith("vitest-") && f.endsWith(".json")).sort()) {
  const report = JSON.parse(readFileSync(join(reportsDir, file), "utf8"));
  const filesFailedToRun = (report.testResults ?? []).filter(
    (r) => r.status === "failed" && (r.assertionResults ?? []).length === 0,
  ).length;
  passed += report.numPassedTests;
  failed += report.numFailedTests + filesFailedToRun;
  skipped += report.numPendingTests + report.numTodoTests;
  lines.push(`${file.slice(7, -5)}: ${report.numPassedTests} passed, ${report.numFailedTests + filesFailedToRun} failed`);
}

const cucumberReport = join(reportsDir, "cucumber.json");
if (existsSync(cucumberReport)) {
  let scenariosPassed = 0;
  let scenariosFailed = 0;
  for (const feature of JSON.parse(readFileSync(cucumberReport, "utf8"))) {
    for (const element of feature.elements ?? []) {
      if (element.type !== "scenario") continue;
      const ok = element.steps.every((step) => step.result?.status === "passed");
      if (ok) scenariosPassed += 1;
      else scenariosFailed += 1;
    }
  }
  passed += scenariosPassed;
  failed += scenariosFailed;
  lines.push(`cucumber scenarios: ${scenariosPassed} passed, ${scenariosFailed} failed`);
}

// A runner that exited non-zero without a report still counts as a failure.
if (turbo.status !== 0 && failed === 0) failed = 1;

console.log("\nTest summary by runner:");
for (const line of lines) console.log(`  ${line}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(turbo.status === 0 && failed === 0 ? 0 : 1);
