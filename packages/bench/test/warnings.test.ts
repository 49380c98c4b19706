import { afterEach, describe, expect, it } from "vitest";
import { WarningRecorder, type RecordedWarning } from "../src/warnings.js";

const recorders: WarningRecorder[] = [];

function startedRecorder(): WarningRecorder {
  const recorder = new WarningRecorder();
  recorder.start();
  recorders.push(recorder);
  return recorder;
}

/** process.emitWarning delivers on a later tick. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  for (const recorder of recorders.splice(0)) recorder.stop();
});

describe("WarningRecorder", () => {
  it("records warnings under the phase in force when they fire", async () => {
    const recorder = startedRecorder();
    recorder.phase = "stdio.latency.raw";
    process.emitWarning("first leak", "BenchTestWarning");
    process.emitWarning("second leak", "BenchTestWarning");
    await settle();
    recorder.phase = "stdio.close";
    process.emitWarning("late leak", "BenchTestWarning");
    await settle();
    expect(recorder.warnings).toEqual([
      { name: "BenchTestWarning", phase: "stdio.latency.raw", count: 2, firstMessage: "first leak" },
      { name: "BenchTestWarning", phase: "stdio.close", count: 1, firstMessage: "late leak" },
    ]);
    expect(recorder.countDuring("BenchTestWarning", "raw")).toBe(2);
    expect(recorder.countOutsideSides("BenchTestWarning", ["adapter", "raw"])).toBe(1);
  });

  it("hands a worker's warnings to the parent once each, under the worker's phases", async () => {
    const worker = startedRecorder();
    worker.phase = "http.throughput.raw";
    process.emitWarning("leak in round one", "BenchTestWarning");
    await settle();
    const firstAnswer = worker.drain();
    expect(worker.drain()).toEqual([]);
    process.emitWarning("leak in round two", "BenchTestWarning");
    await settle();
    const secondAnswer = worker.drain();

    const parent = new WarningRecorder();
    parent.absorb(firstAnswer);
    parent.absorb(secondAnswer);
    expect(parent.warnings).toEqual([
      { name: "BenchTestWarning", phase: "http.throughput.raw", count: 2, firstMessage: "leak in round one" },
    ]);
    expect(parent.countDuring("BenchTestWarning", "raw")).toBe(2);
    expect(parent.countDuring("BenchTestWarning", "adapter")).toBe(0);
    // Absorbing copies: the answers themselves are left as they came.
    expect(firstAnswer).toEqual([
      {
        name: "BenchTestWarning",
        phase: "http.throughput.raw",
        count: 1,
        firstMessage: "leak in round one",
      } satisfies RecordedWarning,
    ]);
  });
});
