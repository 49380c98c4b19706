/** Order statistics of a sample; times in whatever unit the samples were taken. */
export interface Summary {
  count: number;
  min: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** The q-quantile (0..1) of ascending `sorted` by linear interpolation between neighbours. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  const high = sorted[above]!;
  return low + (high - low) * (position - below);
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    min: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length === 0 ? Number.NaN : total / sorted.length,
  };
}

export function median(samples: readonly number[]): number {
  return quantile(
    [...samples].sort((a, b) => a - b),
    0.5,
  );
}

/**
 * The median of the per-round ratios `numerators[i] / denominators[i]`. Each round's two
 * samples were taken back to back, so their ratio cancels what the machine was doing at the
 * time; the median then drops the rounds another process disturbed more on one side than the other.
 */
export function medianPairedRatio(numerators: readonly number[], denominators: readonly number[]): number {
  return median(pairwise(numerators, denominators, (numerator, denominator) => numerator / denominator));
}

/** The median of the per-round differences `minuends[i] - subtrahends[i]` (see medianPairedRatio). */
export function medianPairedDifference(minuends: readonly number[], subtrahends: readonly number[]): number {
  return median(pairwise(minuends, subtrahends, (minuend, subtrahend) => minuend - subtrahend));
}

/** `combine(a[i], b[i])` for each round; both arrays must come from the same rounds. */
function pairwise<T, R>(a: readonly T[], b: readonly T[], combine: (a: T, b: T) => R): R[] {
  if (a.length !== b.length) throw new RangeError(`paired samples differ in length: ${a.length} and ${b.length}`);
  return a.map((value, index) => combine(value, b[index]!));
}

/** How far one side is shifted from the other, with the range it lies in at 95% confidence. */
export interface PairedShift {
  estimate: number;
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z_95 = 1.959964;

/**
 * The Hodges-Lehmann estimate of the shift between paired samples: the median of the Walsh
 * averages (d[i] + d[j]) / 2, i <= j, of the per-round differences d, with the distribution-free
 * 95% interval of the Wilcoxon signed-rank test (normal approximation).
 *
 * Used where one round's two samples vary by far more than the shift being judged (a stdio
 * connect starts a whole server process): the plain median of the differences then needs about
 * half again as many rounds for the same precision, and says nothing about how precise it is.
 */
export function hodgesLehmannPairedShift(minuends: readonly number[], subtrahends: readonly number[]): PairedShift {
  const differences = pairwise(minuends, subtrahends, (minuend, subtrahend) => minuend - subtrahend);
  const n = differences.length;
  if (n === 0) return { estimate: Number.NaN, low: Number.NaN, high: Number.NaN };
  const walshAverages: number[] = [];
  for (let i = 0; i < n; i += 1) {
    for (let j = i; j < n; j += 1) walshAverages.push((differences[i]! + differences[j]!) / 2);
  }
  walshAverages.sort((a, b) => a - b);
  const count = walshAverages.length;
  // The interval runs from the c-th smallest to the c-th largest Walsh average (1-based); with
  // too few rounds for 95%, c falls below 1 and the interval is everything seen.
  const signedRankSpread = Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24);
  const c = Math.max(1, Math.floor(count / 2 - Z_95 * signedRankSpread));
  return { estimate: quantile(walshAverages, 0.5), low: walshAverages[c - 1]!, high: walshAverages[count - c]! };
}

/** Student's t for a two-sided 95% interval, by degrees of freedom 1-30; beyond 30, z. */
const T_95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * The geometric mean of the per-round ratios `numerators[i] / denominators[i]`, with the 95%
 * interval of Student's t on their logarithms. Beside medianPairedRatio it says how far more
 * rounds could move a run's ratio, where a figure swings widely from round to round (a stdio p50).
 * Rounds lacking either value (a failed side) are left out; with fewer than two left, NaN.
 */
export function pairedRatioInterval(
  numerators: readonly (number | undefined)[],
  denominators: readonly (number | undefined)[],
): PairedShift {
  const logs = pairwise(numerators, denominators, (numerator, denominator) =>
    numerator === undefined || denominator === undefined ? Number.NaN : Math.log(numerator / denominator),
  ).filter(Number.isFinite);
  const n = logs.length;
  if (n < 2) return { estimate: Number.NaN, low: Number.NaN, high: Number.NaN };
  const mean = logs.reduce((sum, value) => sum + value, 0) / n;
  const variance = logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const halfWidth = (T_95[n - 2] ?? Z_95) * Math.sqrt(variance / n);
  return { estimate: Math.exp(mean), low: Math.exp(mean - halfWidth), high: Math.exp(mean + halfWidth) };
}
