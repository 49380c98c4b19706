import { describe, expect, it } from "vitest";
import { median, medianPairedDifference, medianPairedRatio, quantile, summarize } from "../src/stats.js";

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

describe("medianPairedDifference", () => {
  it("subtracts round by round and takes the median, so drift and one disturbed round drop out", () => {
    const raw = [400, 420, 380, 450, 410];
    const adapter = [402, 423, 500, 451, 413];
    expect(medianPairedDifference(adapter, raw)).toBe(3);
    expect(() => medianPairedDifference([1], [1, 2])).toThrow(/differ in length: 1 and 2/);
  });
});
