import { describe, expect, it } from "vitest";
import { ControllersAhead } from "../src/controllers-ahead.js";

const nextTick = (): Promise<void> => new Promise((resolve) => process.nextTick(resolve));

// Calls take controllers made ahead: each must still be a controller of its own, never handed out
// twice, so that cancelling one call aborts that call's signal and no other.
describe("controllers made ahead", () => {
  it("hands out a fresh controller per call, before and after the spares are made", async () => {
    const controllers = new ControllersAhead();
    const taken: AbortController[] = [];
    for (let turn = 0; turn < 4; turn += 1) {
      // Bursts larger than the spare ones, then single takes: both paths of take().
      for (let i = 0; i < (turn % 2 === 0 ? 20 : 1); i += 1) taken.push(controllers.take());
      controllers.refillAfterWrites();
      await nextTick();
    }
    expect(new Set(taken).size).toBe(taken.length);
    expect(new Set(taken.map((controller) => controller.signal)).size).toBe(taken.length);
    expect(taken.every((controller) => !controller.signal.aborted)).toBe(true);

    const [cancelled, ...others] = taken;
    cancelled?.abort(new Error("the client cancelled"));
    expect(cancelled?.signal.aborted).toBe(true);
    expect(others.some((controller) => controller.signal.aborted)).toBe(false);
    controllers.refillAfterWrites();
    await nextTick();
    expect(controllers.take().signal.aborted).toBe(false);
  });
});
