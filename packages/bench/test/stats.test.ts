import { describe, expect, it } from "vitest";
import {
  hodgesLehmannPairedShift,
  median,
  medianPairedRatio,
  pairedRatioInterval,
  quantile,
  summarize,
} from "../src/stats.js";

describe("summarize", () => {
  it("gives order statistics of an unsorted sample", () => {
    const samples = Array.from({ length: 101 }, (_, i) => 100 - i);
    const summary = summarize(samples);
    expect(summary).toMatchObject({ count: 101, min: 0, max: 100, median: 50, mean: 50 });
    expect(summary.p95).toBeCloseTo(95, 9);
    expect(summary.p99).toBeCloseTo(99, 9);
  });

  it("interpolates between neighbours and leaves the input alone", () => {
    const samples = [4, 1, 3, 2];
    expect(median(samples)).toBe(2.5);
    expect(quantile([1, 2], 0.25)).toBe(1.25);
    expect(samples).toEqual([4, 1, 3, 2]);
  });

  it("reports NaN, not zero, for an empty sample", () => {
    expect(summarize([]).median).toBeNaN();
    expect(summarize([]).count).toBe(0);
  });
});

describe("medianPairedRatio", () => {
  it("divides round by round, so drift that hits both sides of a round cancels", () => {
    // The machine slows down 3x over the run; the adapter is 10% faster in every round.
    const raw = [100, 150, 200, 250, 300];
    const adapter = raw.map((value) => value * 1.1);
    expect(medianPairedRatio(adapter, raw)).toBeCloseTo(1.1, 12);
  });

  it("is not moved by one round that something else disturbed on one side", () => {
    // Drift plus one round where the adapter's half was hit twice as hard.
    const raw = [100, 200, 300, 400, 500];
    const adapter = [102, 204, 600, 408, 510];
    expect(medianPairedRatio(adapter, raw)).toBeCloseTo(1.02, 12);
    // Pooling both sides' samples first would have reported a 36% difference.
    expect(median(adapter) / median(raw)).toBeCloseTo(1.36, 12);
  });

  it("refuses samples that are not paired", () => {
    expect(() => medianPairedRatio([1, 2], [1])).toThrow(/differ in length: 2 and 1/);
  });
});

describe("hodgesLehmannPairedShift", () => {
  const raw = [400, 380, 420, 390, 410, 405, 395, 385, 415, 400];
  // Per-round differences -5 -3 -1 0 2 4 6 8 10 30: one round far off, as when a server start stalls.
  const differences = [-5, -3, -1, 0, 2, 4, 6, 8, 10, 30];
  const adapter = raw.map((value, index) => value + differences[index]!);

  it("is the median of the Walsh averages, with the signed-rank 95% interval", () => {
    // 55 Walsh averages; c = floor(55 / 2 - 1.96 * sqrt(10 * 11 * 21 / 24)) = 8, so the interval
    // runs from the 8th smallest (-1.5) to the 8th largest (14.5).
    expect(hodgesLehmannPairedShift(adapter, raw)).toEqual({ estimate: 3.5, low: -1.5, high: 14.5 });
  });

  it("moves little for one disturbed round, where the mean follows it", () => {
    const calm = hodgesLehmannPairedShift(adapter, raw).estimate;
    const disturbed = [...adapter];
    disturbed[9] = raw[9]! + 1_000;
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    expect(hodgesLehmannPairedShift(disturbed, raw).estimate - calm).toBeLessThanOrEqual(0.5);
    expect(mean(disturbed) - mean(adapter)).toBeGreaterThan(90);
  });

  it("shifts with the samples and ignores what both sides share", () => {
    const shifted = hodgesLehmannPairedShift(
      adapter.map((value) => value + 7),
      raw.map((value) => value - 200),
    );
    expect(shifted).toEqual({ estimate: 210.5, low: 205.5, high: 221.5 });
  });

  it("spans every Walsh average when there are too few rounds for 95%", () => {
    expect(hodgesLehmannPairedShift([11, 22, 33], [10, 20, 30])).toEqual({ estimate: 2, low: 1, high: 3 });
    expect(hodgesLehmannPairedShift([], [])).toEqual({ estimate: Number.NaN, low: Number.NaN, high: Number.NaN });
    expect(() => hodgesLehmannPairedShift([1], [1, 2])).toThrow(/differ in length: 1 and 2/);
  });
});

describe("pairedRatioInterval", () => {
  it("gives the geometric mean of the ratios and Student's t interval on their logarithms", () => {
    // Ratios 2 and 8: logs ln 2 and 3 ln 2, mean 2 ln 2, standard error ln 2, t(1) = 12.706.
    const { estimate, low, high } = pairedRatioInterval([2, 16], [1, 2]);
    expect(estimate).toBeCloseTo(4, 12);
    expect(Math.log2(high / estimate)).toBeCloseTo(12.706, 9);
    expect(Math.log2(estimate / low)).toBeCloseTo(12.706, 9);
  });

  it("narrows with more rounds of the same spread, and uses z past thirty rounds", () => {
    const ratios = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 0.9 : 1.1));
    const width = (n: number) => {
      const { low, high } = pairedRatioInterval(ratios(n), Array<number>(n).fill(1));
      return Math.log(high / low);
    };
    expect(width(20)).toBeLessThan(width(6));
    const spread = Math.sqrt((40 * Math.log(1.1 / 0.9) ** 2) / 4 / 39);
    expect(width(40)).toBeCloseTo(2 * 1.959964 * (spread / Math.sqrt(40)), 6);
  });

  it("leaves out rounds lacking a value, and needs two rounds", () => {
    expect(pairedRatioInterval([2, undefined, 16], [1, 5, 2]).estimate).toBeCloseTo(4, 12);
    expect(pairedRatioInterval([2, 3], [1, undefined]).estimate).toBeNaN();
    expect(() => pairedRatioInterval([1, 2], [1])).toThrow(RangeError);
  });
});
