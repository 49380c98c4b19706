import { describe, expect, it } from "vitest";
import { untilAborted } from "../src/index.js";

describe("untilAborted", () => {
  it("settles like the step while the signal stays quiet", async () => {
    const late: unknown[] = [];
    const signal = new AbortController().signal;
    await expect(untilAborted(Promise.resolve(1), signal, (value) => late.push(value))).resolves.toBe(1);
    await expect(untilAborted(Promise.reject(new Error("step failed")), signal, () => undefined)).rejects.toThrow(
      "step failed",
    );
    expect(late).toEqual([]);
  });

  it("rejects with the abort's reason at once, and hands the value that comes later to onLate", async () => {
    const controller = new AbortController();
    let finish!: (value: string) => void;
    const step = new Promise<string>((resolve) => (finish = resolve));
    const late: string[] = [];
    const racing = untilAborted(step, controller.signal, (value) => late.push(value));
    controller.abort(new Error("caller gave up"));
    await expect(racing).rejects.toThrow("caller gave up");
    finish("connection");
    await step;
    await Promise.resolve();
    expect(late).toEqual(["connection"]);
  });

  it("with a signal aborted before the start, still hands the step's value to onLate", async () => {
    const controller = new AbortController();
    controller.abort(new Error("too late"));
    const late: number[] = [];
    const step = Promise.resolve(7);
    await expect(untilAborted(step, controller.signal, (value) => late.push(value))).rejects.toThrow("too late");
    await step;
    await Promise.resolve();
    expect(late).toEqual([7]);
  });
});
