import { describe, expect, it } from "vitest";
import { summarizeAgainstBaseline } from "../src/peers/ratios.js";
import { rotatedOrder } from "../src/peers/rotation.js";

describe("rotatedOrder", () => {
  it("puts every side in every position once over as many rounds as there are sides", () => {
    const sides = ["raw", "adapter", "langchain"];
    const orders = [0, 1, 2].map((round) => rotatedOrder(sides, round));
    expect(orders).toEqual([
      ["raw", "adapter", "langchain"],
      ["adapter", "langchain", "raw"],
      ["langchain", "raw", "adapter"],
    ]);
    for (let position = 0; position < sides.length; position += 1) {
      expect(new Set(orders.map((order) => order[position]))).toEqual(new Set(sides));
    }
  });

  it("wraps around after a full cycle and leaves the given list alone", () => {
    const sides = ["a", "b"];
    expect(rotatedOrder(sides, 2)).toEqual(["a", "b"]);
    expect(rotatedOrder(sides, 5)).toEqual(["b", "a"]);
    expect(sides).toEqual(["a", "b"]);
    expect(rotatedOrder([], 3)).toEqual([]);
  });
});

describe("summarizeAgainstBaseline", () => {
  it("gives each side its median and the median of its per-round ratios to the baseline", () => {
    const rounds = [
      { raw: 100, adapter: 90 },
      { raw: 200, adapter: 170 }, // a slow round for both: the ratio still reads 0.85
      { raw: 100, adapter: 130 }, // disturbed on one side only: the median drops it
    ];
    const summary = summarizeAgainstBaseline(rounds, ["raw", "adapter"], "raw");
    expect(summary.raw).toEqual({ median: 100, ratio: 1, rounds: 3 });
    expect(summary.adapter.median).toBe(130);
    expect(summary.adapter.ratio).toBeCloseTo(0.9, 12);
    expect(summary.adapter.rounds).toBe(3);
  });

  it("differs from the ratio of the medians when rounds drift", () => {
    const rounds = [
      { raw: 10, side: 11 },
      { raw: 30, side: 12 },
      { raw: 20, side: 30 },
    ];
    const summary = summarizeAgainstBaseline(rounds, ["side"], "raw");
    expect(summary.side.median / 20).toBeCloseTo(0.6, 12);
    expect(summary.side.ratio).toBeCloseTo(1.1, 12);
  });

  it("skips rounds where a side or the baseline has no value, and gives NaN for a side with none", () => {
    const rounds = [{ raw: 10, a: 20 }, { a: 40 }, { raw: 10, a: Number.NaN }, { raw: 20 }];
    const summary = summarizeAgainstBaseline(rounds, ["raw", "a", "b"], "raw");
    expect(summary.a.median).toBe(30);
    expect(summary.a.ratio).toBe(2);
    expect(summary.a.rounds).toBe(1);
    expect(summary.b.median).toBeNaN();
    expect(summary.b.ratio).toBeNaN();
    expect(summary.b.rounds).toBe(0);
  });
});
