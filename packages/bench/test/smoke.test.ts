import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenchReport } from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const runFile = promisify(execFile);

// Every figure a run must produce, whatever the values: a scenario that silently drops one fails here.
const EXPECTED_FIGURES = [
  "leaf.validate.median",
  "leaf.compile.median",
  "leaf.compile.cpu",
  "leaf.registry-get.small",
  "leaf.registry-get.large",
  "leaf.registry-get.ratio",
  "leaf.registry-get.large-spread",
  "leaf.registry-get.plain-map-ratio",
  "model-tools.call.invoke",
  "model-tools.call.bridge",
  "model-tools.call.overhead",
  "model-tools.call.handle-overhead",
  "telemetry.no-provider.per-call",
  "telemetry.sdk-provider.per-call",
  ...["openai-strict", "openai-responses", "anthropic", "gemini"].flatMap((format) => [
    `model-tools.convert.${format}`,
    `model-tools.convert.${format}.cpu`,
    `model-tools.convert.${format}.again`,
    `model-tools.convert.${format}.unsettled`,
  ]),
  ...["openai-strict", "openai-responses", "anthropic", "gemini"].flatMap((format) => [
    `cold-conversion.${format}`,
    `cold-conversion.${format}.cpu`,
    `cold-conversion.${format}.peak-rss`,
    `cold-conversion.${format}.retained-heap`,
  ]),
  "model-tools.deferred.first-calls",
  "model-tools.deferred.first-calls.again",
  "model-tools.deferred.changes",
  ...["stdio", "http"].flatMap((key) => [
    `${key}.connect.median`,
    `${key}.discover.median`,
    `${key}.echo.median`,
    `${key}.echo.p95`,
    `${key}.echo.p99`,
    `${key}.echo.cpu`,
    `${key}.throughput`,
    `${key}.throughput.cpu`,
  ]),
  "many-tools.discover-register.median",
  "many-tools.discover-register.cpu",
  "many-tools.discover-again.cpu",
  "many-tools.peak-rss",
  "many-tools.baseline-rss",
  "many-tools.rss-growth",
  "heap.after-warmup",
  "heap.after-invokes",
  "heap.growth",
  "heap.in-memory-throughput",
  "server-set.connect.parallel",
  "server-set.connect.parallel.cpu",
  "server-set.connect.slowest-member",
  "server-set.connect.parallel-over-slowest",
  "server-set.connect.solo",
  "server-set.connect.parallel-over-solo",
  "server-set.floor.connect.parallel",
  "server-set.floor.connect.parallel.cpu",
  "server-set.floor.connect.solo",
  "server-set.floor.connect.parallel-over-solo",
  "server-set.connect.parallel-vs-floor",
  "server-set.heap-per-server",
  "server-set.calls.throughput",
  "server-set.calls.cpu",
  "server-set.close",
  "server-set.close.families-gone",
  "server-set.close.processes-left",
  "run.max-listeners-warnings",
  "run.leftover-processes",
];

// Targets are judged on these; each must carry a verdict (pass or fail is the bench's business, not the test's).
const JUDGED_FIGURES = [
  "leaf.validate.median",
  "leaf.compile.median",
  "leaf.registry-get.ratio",
  "model-tools.call.overhead",
  "model-tools.call.handle-overhead",
  "telemetry.no-provider.per-call",
  ...["openai-strict", "openai-responses", "anthropic", "gemini"].flatMap((format) => [
    `model-tools.convert.${format}`,
    `model-tools.convert.${format}.again`,
  ]),
  ...["openai-strict", "openai-responses", "anthropic", "gemini"].map((format) => `cold-conversion.${format}.cpu`),
  "stdio.connect.median",
  "stdio.echo.median",
  "stdio.throughput",
  "http.connect.median",
  "http.echo.median",
  "http.throughput",
  "many-tools.discover-register.median",
  "many-tools.discover-again.cpu",
  "many-tools.peak-rss",
  "heap.after-invokes",
  "server-set.connect.parallel-over-slowest",
  "server-set.connect.parallel-vs-floor",
  "server-set.heap-per-server",
  "server-set.close.families-gone",
  "server-set.close.processes-left",
  "run.max-listeners-warnings",
  "run.leftover-processes",
];

describe("pnpm bench --quick", () => {
  let outDir: string;
  let stdout: string;
  let report: BenchReport;

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), "mcp-bench-smoke-"));
    const outFile = join(outDir, "bench.json");
    // The same command `pnpm bench` runs, with the quick settings and a private report file.
    ({ stdout } = await runFile(
      process.execPath,
      [
        "--expose-gc",
        "--no-warnings",
        "--import",
        "tsx",
        "--conditions=@mcp-tool-adapter/source",
        "src/main.ts",
        "--quick",
        `--out=${outFile}`,
      ],
      { cwd: packageDir, maxBuffer: 16 * 1024 * 1024, timeout: 280_000 },
    ));
    report = JSON.parse(await readFile(outFile, "utf8")) as BenchReport;
  }, 300_000);

  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it("produces every figure, each a finite number", () => {
    expect(report.figures.map((figure) => figure.id).sort()).toEqual([...EXPECTED_FIGURES].sort());
    for (const figure of report.figures) {
      const numbers = figure.value === undefined ? [figure.adapter, figure.raw] : [figure.value];
      for (const number of numbers) expect(Number.isFinite(number), `${figure.id} is ${String(number)}`).toBe(true);
    }
  });

  const PAIRED_RATIO_FIGURES = [
    "stdio.echo.median",
    "http.echo.median",
    "stdio.throughput",
    "http.throughput",
    "telemetry.no-provider.per-call",
    "telemetry.sdk-provider.per-call",
  ];

  it("compares both sides and gives their ratio on every side-by-side figure", () => {
    const sideBySide = report.figures.filter((figure) => figure.value === undefined);
    expect(sideBySide.length).toBeGreaterThan(15);
    for (const figure of sideBySide) {
      expect(figure.adapter, figure.id).toBeTypeOf("number");
      expect(figure.raw, figure.id).toBeTypeOf("number");
      if (figure.ratio === undefined) continue;
      // Judged by paired rounds: the median of per-round ratios, which pooled figures cannot reproduce.
      if (PAIRED_RATIO_FIGURES.includes(figure.id)) {
        expect(figure.ratio, figure.id).toBeGreaterThan(0);
        expect(Number.isFinite(figure.ratio), figure.id).toBe(true);
        expect(figure.note, figure.id).toMatch(/median of the per-round ratios/);
      } else {
        expect(figure.ratio, figure.id).toBeCloseTo(figure.adapter! / figure.raw!, 9);
      }
    }
  });

  it("judges every target and counts the verdicts", () => {
    for (const id of JUDGED_FIGURES) {
      const figure = report.figures.find((candidate) => candidate.id === id);
      expect(figure?.target?.pass, id).toBeTypeOf("boolean");
    }
    expect(report.targets.passed + report.targets.failed.length).toBe(JUDGED_FIGURES.length);
    expect(report.settings.name).toBe("quick");
  });

  it("prints the table with a row per figure and the verdict line", () => {
    for (const header of ["adapter", "raw SDK", "adapter/raw", "target", "result"]) expect(stdout).toContain(header);
    for (const figure of report.figures) expect(stdout).toContain(figure.label);
    expect(stdout).toMatch(/targets: \d+ passed, \d+ failed/);
  });
});
