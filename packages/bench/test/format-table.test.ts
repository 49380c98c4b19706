import { describe, expect, it } from "vitest";
import { formatNumber, formatReport } from "../src/format-table.js";
import type { BenchReport } from "../src/run-bench.js";
import { QUICK_SETTINGS } from "../src/settings.js";

const report: BenchReport = {
  startedAt: "2026-01-01T00:00:00.000Z",
  durationMs: 1234,
  environment: {
    node: "v20.0.0",
    platform: "linux x64",
    cpus: 2,
    cpuModel: "test cpu",
    loadAverage: { start: [1.5, 2, 2.5], end: [3, 2, 1] },
  },
  settings: QUICK_SETTINGS,
  scenarios: ["stdio"],
  calibrate: false,
  figures: [
    {
      id: "a",
      group: "group one",
      label: "echo median",
      unit: "ms",
      adapter: 1.1,
      raw: 1,
      ratio: 1.1,
      target: { text: "≤ 1.05 × raw", pass: false },
    },
    {
      id: "b",
      group: "group two",
      label: "validate",
      unit: "µs",
      value: 0.5,
      target: { text: "≤ 2 µs", pass: true },
      note: "batch means",
    },
  ],
  warnings: [],
  targets: { passed: 1, failed: ["a"] },
  peerTables: [],
};

describe("formatReport", () => {
  it("prints each group, both sides, the ratio and the verdicts", () => {
    const text = formatReport(report);
    const echoRow = text.split("\n").find((line) => line.startsWith("echo median"));
    expect(echoRow).toMatch(/1\.10\s+1\.00\s+1\.100\s+≤ 1\.05 × raw\s+FAIL/);
    expect(text).toMatch(/^group one$/m);
    expect(text).toMatch(/validate\s+µs\s+0\.500\s+≤ 2 µs\s+PASS/);
    expect(text).toContain("targets: 1 passed, 1 failed (a)");
    expect(text).toContain("b: batch means");
  });
});

describe("formatNumber", () => {
  it("says so when both sides ran the raw SDK (A/A calibration)", () => {
    expect(formatReport(report)).not.toContain("calibration");
    expect(formatReport({ ...report, calibrate: true })).toContain("calibration (A/A): both sides ran the raw SDK");
  });

  it("keeps a few significant digits at every magnitude", () => {
    expect([
      formatNumber(12_345.6),
      formatNumber(123.45),
      formatNumber(1.2345),
      formatNumber(0.01234),
      formatNumber(0),
    ]).toEqual(["12,346", "123.5", "1.23", "0.012", "0"]);
    expect(formatNumber(undefined)).toBe("");
  });
});
