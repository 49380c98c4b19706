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
  return quantile([...samples].sort((a, b) => a - b), 0.5);
}

/**
 * The median of the per-round ratios `numerators[i] / denominators[i]`. Each round's two
 * samples were taken back to back, so their ratio cancels what the machine was doing at the
 * time; the median then drops the rounds another process disturbed more on one side than the other.
 */
export function medianPairedRatio(numerators: readonly number[], denominators: readonly number[]): number {
  if (numerators.length !== denominators.length) {
    throw new RangeError(`paired samples differ in length: ${numerators.length} and ${denominators.length}`);
  }
  return median(numerators.map((value, index) => value / denominators[index]!));
}

/** The median of the per-round differences `minuends[i] - subtrahends[i]`, paired like `medianPairedRatio`. */
export function medianPairedDifference(minuends: readonly number[], subtrahends: readonly number[]): number {
  if (minuends.length !== subtrahends.length) {
    throw new RangeError(`paired samples differ in length: ${minuends.length} and ${subtrahends.length}`);
  }
  return median(minuends.map((value, index) => value - subtrahends[index]!));
}
