import { describe, expect, it } from "vitest";
import { median, quantile, summarize } from "../src/stats.js";

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
