import type { Figure } from "./figures.js";
import { formatNumber } from "./format-number.js";
import { formatPeerTable } from "./peers/peer-table.js";
import type { BenchReport } from "./run-bench.js";

// In a file of its own so the peer table can use it without importing this module (which imports the peer table).
export { formatNumber } from "./format-number.js";

const HEADERS = ["figure", "unit", "adapter", "raw SDK", "adapter/raw", "target", "result"] as const;

function row(figure: Figure): string[] {
  const single = figure.value !== undefined;
  return [
    figure.label,
    figure.unit,
    formatNumber(single ? figure.value : figure.adapter),
    single ? "" : formatNumber(figure.raw),
    figure.ratio === undefined ? "" : figure.ratio.toFixed(3),
    figure.target?.text ?? "",
    figure.target === undefined ? "" : figure.target.pass ? "PASS" : "FAIL",
  ];
}

/** The results as a plain-text table, grouped by scenario, then a one-line verdict. */
export function formatReport(report: BenchReport): string {
  const groups = new Map<string, Figure[]>();
  for (const figure of report.figures) groups.set(figure.group, [...(groups.get(figure.group) ?? []), figure]);
  const rows = report.figures.map(row);
  const widths = HEADERS.map((header, column) =>
    Math.max(header.length, ...rows.map((cells) => cells[column]!.length)),
  );
  const numeric = new Set([2, 3, 4]);
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join("  ")
      .trimEnd();
  const out: string[] = [line(HEADERS), widths.map((width) => "-".repeat(width)).join("  ")];
  for (const [group, figures] of groups) {
    out.push("", group);
    for (const figure of figures) out.push(line(row(figure)));
  }
  const { passed, failed } = report.targets;
  out.push(
    "",
    `targets: ${passed} passed, ${failed.length} failed${failed.length === 0 ? "" : ` (${failed.join(", ")})`}`,
    ...(report.calibrate
      ? [
          "calibration (A/A): both sides ran the raw SDK, so each ratio is this machine's noise between two identical sides",
        ]
      : []),
    `settings: ${report.settings.name}; ${report.environment.node} on ${report.environment.cpus} × ${report.environment.cpuModel}; load average ${report.environment.loadAverage.start.map((load) => load.toFixed(2)).join("/")} at the start, ${report.environment.loadAverage.end.map((load) => load.toFixed(2)).join("/")} at the end; took ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  for (const table of report.peerTables) out.push("", formatPeerTable(table));
  const notes = report.figures.filter((figure) => figure.note !== undefined);
  if (notes.length > 0) {
    out.push("", "notes:");
    for (const figure of notes) out.push(`  ${figure.id}: ${figure.note ?? ""}`);
  }
  return out.join("\n");
}
