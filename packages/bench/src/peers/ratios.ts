import { median } from "../stats.js";

/** One round's value of one figure for each side that produced it. */
export type RoundValues<Side extends string> = Partial<Record<Side, number>>;

/** A side's figure over all rounds: its median, and the median of its per-round ratios to the baseline. */
export interface SideSummary {
  /** Median over the rounds in which the side produced the figure. */
  readonly median: number;
  /**
   * Median of `side / baseline` over the rounds in which both produced the figure. Each ratio
   * compares two processes measured minutes apart at most, so the drift of a shared machine
   * cancels in it; the median then drops the rounds another process disturbed on one side only.
   */
  readonly ratio: number;
  /** How many rounds the ratio is taken over. */
  readonly rounds: number;
}

/**
 * Every side's summary of one figure, given each round's values. Rounds in which a side or the
 * baseline has no value (it failed, or was not run) do not count for that side; a side with no
 * usable round gets NaN, which the table shows as missing rather than as a number.
 */
export function summarizeAgainstBaseline<Side extends string>(
  rounds: readonly RoundValues<Side>[],
  sides: readonly Side[],
  baseline: Side,
): Record<Side, SideSummary> {
  const result = {} as Record<Side, SideSummary>;
  for (const side of sides) {
    const values: number[] = [];
    const ratios: number[] = [];
    for (const round of rounds) {
      const value = round[side];
      if (value === undefined || !Number.isFinite(value)) continue;
      values.push(value);
      const base = round[baseline];
      if (base !== undefined && Number.isFinite(base) && base !== 0) ratios.push(value / base);
    }
    result[side] = {
      median: values.length === 0 ? Number.NaN : median(values),
      ratio: ratios.length === 0 ? Number.NaN : median(ratios),
      rounds: ratios.length,
    };
  }
  return result;
}
