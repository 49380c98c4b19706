import { formatNumber } from "../format-number.js";
import type { Unit } from "../figures.js";
import type { WorkerSide } from "./peer-job.js";
import type { SideSummary } from "./ratios.js";

/** One transport's peer comparison (or engine comparison), as the report keeps it and the table prints it. */
export interface PeerTable<Side extends WorkerSide = WorkerSide> {
  /** What the table compares ("peers", "engines"); "peers" when absent. */
  readonly title?: string;
  readonly transport: "stdio" | "streamable-http";
  readonly node: string;
  readonly rounds: number;
  /**
   * Extra rounds that ran the sequential stage alone (peerSequentialRounds): the p50 and
   * sequential CPU rows are over `rounds` + these. None when absent.
   */
  readonly sequentialRounds?: number;
  /** os.loadavg() (1, 5, 15 minutes) before and after the comparison: how busy the machine was. */
  readonly loadAverage: { readonly before: readonly number[]; readonly after: readonly number[] };
  readonly fromSource: boolean;
  /** The side every ratio is to; "raw" (the SDK 1.x Client) when absent. */
  readonly baseline?: Side;
  readonly sides: readonly { side: Side; label: string; call: string }[];
  /** Sides asked for that the node binary is too old for. */
  readonly leftOut: readonly Side[];
  readonly versions: Readonly<Record<string, string>>;
  readonly rows: readonly {
    key: string;
    label: string;
    unit: Unit;
    ratioless: boolean;
    cells: Readonly<Partial<Record<Side, SideSummary>>>;
    /** The same figure as ratios to the floor side (issue 36), when the floor ran. */
    floorCells?: Readonly<Partial<Record<Side, SideSummary>>>;
    /** Every round's value per side, in round order, for whoever wants to look past the medians. */
    perRound: readonly Readonly<Partial<Record<Side, number>>>[];
  }[];
  /** The import probes of the peer comparison; the engine comparison has none. */
  readonly probes?: { adapterPackage: SideSummary; sdkClient: SideSummary };
  /** Side runs that failed (the side then lacks that round), with the reason. */
  readonly failures: readonly string[];
}

/** ", p50 and sequential CPU over 4 + 16 rounds (...)" when the sequential stage ran alone too. */
export function sequentialRoundsNote(table: Pick<PeerTable, "rounds" | "sequentialRounds">): string {
  const extra = table.sequentialRounds ?? 0;
  if (extra === 0) return "";
  return `, the p50 and sequential CPU over ${table.rounds} + ${extra} rounds (the sequential stage alone in ${extra} more processes per side)`;
}

/** One cell: the ratio to raw and the median value, e.g. "0.87× (61.2 µs)"; raw gets its value only. */
export function formatPeerCell(
  summary: SideSummary | undefined,
  unit: Unit,
  baseline: boolean,
  ratioless: boolean,
): string {
  if (summary === undefined || !Number.isFinite(summary.median)) return "n/a";
  const value = `${formatNumber(summary.median)} ${unit}`;
  if (baseline || ratioless || !Number.isFinite(summary.ratio)) return value;
  return `${summary.ratio.toFixed(2)}× (${value})`;
}

/** The comparison as a Markdown table: a row per figure, a column per side. */
export function formatPeerTable(table: PeerTable): string {
  const header = ["figure", ...table.sides.map((side) => side.label)];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const row of table.rows) {
    const cells = table.sides.map((side) => {
      const cell = formatPeerCell(
        row.cells[side.side],
        row.unit,
        side.side === (table.baseline ?? "raw"),
        row.ratioless,
      );
      const toFloor = row.floorCells?.[side.side]?.ratio;
      if (row.ratioless || toFloor === undefined || !Number.isFinite(toFloor) || side.side === "floor") return cell;
      return `${cell}, floor ${toFloor.toFixed(2)}×`;
    });
    lines.push(`| ${row.label} | ${cells.join(" | ")} |`);
  }
  const load = (values: readonly number[]): string => values.map((value) => value.toFixed(2)).join(" / ");
  const baseline = table.sides.find((side) => side.side === table.baseline)?.label ?? table.sides[0]?.label;
  return [
    `${table.title ?? "peers"} over ${table.transport}, ${table.node}, ${table.rounds} round(s)${sequentialRoundsNote(table)}${table.fromSource ? ", our packages from source (tsx)" : ""}; load average ${load(table.loadAverage.before)} before, ${load(table.loadAverage.after)} after`,
    ...lines,
    ...(table.rows.some((row) => row.floorCells !== undefined)
      ? [
          'each cell: the ratio to the first column, then ("floor N×") to the floor side, both medians of per-round ratios',
        ]
      : []),
    ...(table.probes === undefined
      ? [`ratios: median of the per-round ratios to ${baseline}`]
      : [
          `import of @mcp-tool-adapter/adapter alone: ${formatPeerCell(table.probes.adapterPackage, "ms", false, false)} against the SDK Client alone ${formatPeerCell(table.probes.sdkClient, "ms", true, false)}`,
        ]),
    `versions: ${Object.entries(table.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")}`,
    ...(table.leftOut.length === 0 ? [] : [`left out (need a newer Node): ${table.leftOut.join(", ")}`]),
    ...table.failures.map((failure) => `FAILED ${failure}`),
  ].join("\n");
}
