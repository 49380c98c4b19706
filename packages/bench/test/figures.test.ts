import { describe, expect, it } from "vitest";
import { compared, plusAtMost } from "../src/figures.js";

describe("plusAtMost", () => {
  it("judges adapter - raw against the allowance", () => {
    expect(plusAtMost(5, "ms")(404, 400)).toEqual({ text: "≤ raw + 5 ms", pass: true });
    expect(plusAtMost(5, "ms")(406, 400).pass).toBe(false);
  });

  it("judges the paired difference instead when given one", () => {
    // Pooled medians 20 ms apart, but round by round the adapter was 2 ms slower.
    expect(plusAtMost(5, "ms", 2)(420, 400).pass).toBe(true);
    expect(plusAtMost(5, "ms", 7)(400, 400).pass).toBe(false);
  });
});

describe("compared", () => {
  it("reports a given ratio instead of adapter / raw, and judges that one", () => {
    const figure = compared(
      { id: "x", group: "g", label: "l", unit: "ms", adapter: 1.2, raw: 1, ratio: 1.01 },
      (_a, _r, ratio) => ({ text: "≤ 1.05 × raw", pass: ratio <= 1.05 }),
    );
    expect(figure.ratio).toBe(1.01);
    expect(figure.target?.pass).toBe(true);
    expect(compared({ id: "x", group: "g", label: "l", unit: "ms", adapter: 1.2, raw: 1 }).ratio).toBeCloseTo(1.2, 12);
  });
});
