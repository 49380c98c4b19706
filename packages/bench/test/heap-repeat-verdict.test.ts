import { describe, expect, it } from "vitest";
import { heapRepeatVerdict } from "../src/peers/heap-repeat-verdict.js";

describe("heapRepeatVerdict", () => {
  it("passes growth up to a tenth of the heap after warm-up and fails more", () => {
    expect(heapRepeatVerdict(0.98, 9.89).pass).toBe(true);
    expect(heapRepeatVerdict(0.99, 9.89).pass).toBe(false);
    expect(heapRepeatVerdict(1.67, 9.89).pass).toBe(false);
  });

  it("passes a heap that shrank, however far: bytecode flushed since start-up is not a leak", () => {
    expect(heapRepeatVerdict(-1.17, 9.89).pass).toBe(true);
    expect(heapRepeatVerdict(-5, 9.89).pass).toBe(true);
  });

  it("states the target it judged", () => {
    expect(heapRepeatVerdict(0, 6.38).text).toBe("at most 10% of the heap after warm-up");
  });
});
