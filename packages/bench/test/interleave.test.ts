import { describe, expect, it } from "vitest";
import { alternate, sidesInRound, type Side } from "../src/interleave.js";

describe("alternate", () => {
  it("runs every round for both sides, swapping which side goes first each round", async () => {
    const runs: [Side, number][] = [];
    await alternate(4, async (side, round) => {
      runs.push([side, round]);
      await Promise.resolve();
    });
    expect(runs).toEqual([
      ["adapter", 0],
      ["raw", 0],
      ["raw", 1],
      ["adapter", 1],
      ["adapter", 2],
      ["raw", 2],
      ["raw", 3],
      ["adapter", 3],
    ]);
  });

  it("waits for one run to finish before starting the next", async () => {
    let running = 0;
    let overlapped = false;
    await alternate(3, async () => {
      running += 1;
      if (running > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
    });
    expect(overlapped).toBe(false);
  });

  it("puts each side first equally often over an even number of rounds", () => {
    const firsts = [0, 1, 2, 3, 4, 5].map((round) => sidesInRound(round)[0]);
    expect(firsts.filter((side) => side === "adapter")).toHaveLength(3);
    expect(firsts.filter((side) => side === "raw")).toHaveLength(3);
  });
});
