/** The units figures are reported in. */
export type Unit = "ms" | "µs" | "ns" | "calls/s" | "MB" | "count" | "×";

/** A pass/fail verdict against one target of the issue. */
export interface TargetVerdict {
  /** The target as the issue states it, e.g. "≤ 1.05 × raw". */
  readonly text: string;
  readonly pass: boolean;
}

/**
 * One measured number. Comparisons carry both sides and their ratio (adapter / raw); a leaf
 * figure carries only `value`.
 */
export interface Figure {
  /** Stable key for the JSON report, e.g. "stdio.echo.median". */
  readonly id: string;
  /** The table section, e.g. "server-everything over stdio". */
  readonly group: string;
  readonly label: string;
  readonly unit: Unit;
  readonly adapter?: number;
  readonly raw?: number;
  readonly value?: number;
  readonly ratio?: number;
  readonly target?: TargetVerdict;
  /** How the figure was measured, when the label alone does not say. */
  readonly note?: string;
}

export interface ComparedFigure {
  id: string;
  group: string;
  label: string;
  unit: Unit;
  adapter: number;
  raw: number;
  note?: string;
  /** False for differences that can be near zero or negative (heap growth), where a ratio misleads. */
  showRatio?: boolean;
  /**
   * The ratio to report and judge, when it is not simply adapter / raw: e.g. the median of
   * per-round paired ratios, which a single disturbed round cannot move.
   */
  ratio?: number;
}

/** A side-by-side figure with its ratio, optionally judged by `target(adapter, raw, ratio)`. */
export function compared(
  figure: ComparedFigure,
  target?: (adapter: number, raw: number, ratio: number) => TargetVerdict,
): Figure {
  const { showRatio = true, ratio: givenRatio, ...rest } = figure;
  const ratio = givenRatio ?? figure.adapter / figure.raw;
  return {
    ...rest,
    ...(showRatio ? { ratio } : {}),
    ...(target === undefined ? {} : { target: target(figure.adapter, figure.raw, ratio) }),
  };
}

export interface SingleFigure {
  id: string;
  group: string;
  label: string;
  unit: Unit;
  value: number;
  note?: string;
}

export function single(figure: SingleFigure, target?: (value: number) => TargetVerdict): Figure {
  return { ...figure, ...(target === undefined ? {} : { target: target(figure.value) }) };
}

// Targets of issue 7 and issue 2, as verdict builders.

/** `ours / theirs ≤ limit`; `against` names the other side in the target's text (default "raw"). */
export const ratioAtMost =
  (limit: number, against = "raw") =>
  (_adapter: number, _raw: number, ratio: number): TargetVerdict => ({
    text: `≤ ${limit} × ${against}`,
    pass: ratio <= limit,
  });

export const ratioAtLeast =
  (limit: number, against = "raw") =>
  (_adapter: number, _raw: number, ratio: number): TargetVerdict => ({
    text: `≥ ${limit} × ${against}`,
    pass: ratio >= limit,
  });

/**
 * `adapter ≤ raw + extra`. Given `pairedDifference` (an estimate from per-round adapter - raw
 * differences), that is what gets judged: a drifting machine moves both halves of a round alike.
 */
export const plusAtMost =
  (extra: number, unit: Unit, pairedDifference?: number) =>
  (adapter: number, raw: number): TargetVerdict => ({
    text: `≤ raw + ${extra} ${unit}`,
    pass: (pairedDifference ?? adapter - raw) <= extra,
  });

export const atMost =
  (limit: number, unit: Unit) =>
  (value: number): TargetVerdict => ({ text: `≤ ${limit} ${unit}`, pass: value <= limit });

export const exactly =
  (expected: number, what: string) =>
  (value: number): TargetVerdict => ({ text: what, pass: value === expected });
