import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineTimer } from "../src/engine/pending-request.js";

/** Node's count of timers that hold the process open (an unref'd timer is not counted). */
function timersHoldingTheProcess(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
}

/** A DeadlineTimer over a list of deadlines: what expireDue times out is recorded, and dropped from the list. */
function deadlineTimer() {
  let now = 0;
  const waiting: number[] = [];
  const expired: number[] = [];
  const timer = new DeadlineTimer(
    (at) => {
      for (const deadline of waiting.filter((d) => d <= at)) {
        expired.push(deadline);
        waiting.splice(waiting.indexOf(deadline), 1);
      }
      return waiting.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...waiting);
    },
    () => now,
  );
  return {
    timer,
    expired,
    watch(deadline: number) {
      waiting.push(deadline);
      timer.watch(deadline);
    },
    async advance(ms: number) {
      now += ms;
      await vi.advanceTimersByTimeAsync(ms);
    },
  };
}

describe("DeadlineTimer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("times out each request at its own deadline with one timer, whatever order the deadlines come in", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { timer, expired, watch, advance } = deadlineTimer();
    for (let deadline = 1_000; deadline < 1_100; deadline += 1) watch(deadline);
    watch(500); // sooner than every deadline before it: the timer is armed again, not added to
    expect(vi.getTimerCount()).toBe(1);
    await advance(499);
    expect(expired).toEqual([]);
    await advance(1);
    expect(expired).toEqual([500]);
    await advance(500);
    expect(expired).toEqual([500, 1_000]);
    await advance(99);
    expect(expired).toHaveLength(101);
    expect(vi.getTimerCount()).toBe(0);
    timer.stop();
  });

  it("waits again for a deadline that moved on after it was armed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let now = 0;
    let deadline = 1_000;
    const expired: number[] = [];
    const timer = new DeadlineTimer(
      (at) => {
        if (deadline > at) return deadline;
        expired.push(at);
        return Number.POSITIVE_INFINITY;
      },
      () => now,
    );
    timer.watch(deadline);
    deadline = 1_800; // progress moved it on
    now = 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(expired).toEqual([]);
    now = 1_800;
    await vi.advanceTimersByTimeAsync(800);
    expect(expired).toEqual([1_800]);
  });

  it("holds the process open only while requests are in flight", () => {
    const { timer } = deadlineTimer();
    const before = timersHoldingTheProcess();
    timer.watch(60_000);
    expect(timersHoldingTheProcess()).toBe(before + 1);
    timer.idle();
    expect(timersHoldingTheProcess()).toBe(before);
    timer.watch(61_000); // a later deadline: the armed timer holds again, no second timer
    expect(timersHoldingTheProcess()).toBe(before + 1);
    timer.stop();
    expect(timersHoldingTheProcess()).toBe(before);
  });

  it("over a transport that holds the process open itself, never holds it, and still times requests out", async () => {
    const before = timersHoldingTheProcess();
    let now = 0;
    const expired: number[] = [];
    const timer = new DeadlineTimer(
      (at) => {
        expired.push(at);
        return Number.POSITIVE_INFINITY;
      },
      () => now,
      { holdProcess: false },
    );
    timer.watch(50);
    expect(timersHoldingTheProcess()).toBe(before);
    timer.idle();
    timer.watch(60);
    expect(timersHoldingTheProcess()).toBe(before);
    now = 50;
    await vi.waitFor(() => {
      expect(expired).toEqual([50]);
    });
    timer.stop();
  });

  it("waits past setTimeout's longest delay in steps instead of firing at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { timer, expired, watch, advance } = deadlineTimer();
    const farAway = 3 * 2_147_483_647;
    watch(farAway);
    await advance(2_147_483_647);
    expect(expired).toEqual([]);
    await advance(2 * 2_147_483_647);
    expect(expired).toEqual([farAway]);
    timer.stop();
  });
});
