import { fileURLToPath } from "node:url";
import { listOwnedProcesses, readProcess } from "@mcp-tool-adapter/test-servers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IpcWorkerError } from "../src/workers/ipc-worker-error.js";
import { startIpcWorker, type IpcWorker, type IpcWorkerOptions } from "../src/workers/ipc-worker.js";
import type { FixtureCommands, FixtureInput } from "./fixtures/ipc-fixture-worker.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/ipc-fixture-worker.ts", import.meta.url));

let baseline: Set<number>;
const started: IpcWorker<FixtureCommands>[] = [];

async function start(
  options: Partial<IpcWorkerOptions> = {},
  input: FixtureInput = {},
): Promise<IpcWorker<FixtureCommands>> {
  const worker = await startIpcWorker<FixtureCommands>(FIXTURE, input, {
    name: "fixture worker",
    exitGraceMs: 1_000,
    ...options,
  });
  started.push(worker);
  return worker;
}

function alive(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== "Z";
}

/** Processes started during the test and still alive after a grace period (polled, so load cannot make it flaky). */
async function leftovers(): Promise<number[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const left = listOwnedProcesses()
      .filter((info) => !baseline.has(info.pid))
      .map((info) => info.pid);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function rejection(promise: Promise<unknown>): Promise<IpcWorkerError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!IpcWorkerError.isInstance(error)) throw new Error(`expected an IpcWorkerError, got ${String(error)}`);
  return error;
}

beforeEach(() => {
  baseline = new Set(listOwnedProcesses().map((info) => info.pid));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.close()));
  expect(await leftovers()).toEqual([]);
});

describe("startIpcWorker", () => {
  it("answers each request with its own result, even when they finish out of order", async () => {
    const worker = await start();
    const [slow, fast] = await Promise.all([
      worker.request("echo", { value: "slow", delayMs: 200 }),
      worker.request("echo", { value: "fast", delayMs: 0 }),
    ]);
    expect([slow.value, fast.value]).toEqual(["slow", "fast"]);
    expect(slow.pid).toBe(worker.pid);
    expect(alive(worker.pid)).toBe(true);
  });

  it("exits when the parent disconnects, taking the processes it started with it", async () => {
    // A grace longer than the test's timeout: only a worker that exits by itself lets close() return.
    const worker = await start({ exitGraceMs: 120_000 });
    const { pid: grandchild } = await worker.request("start-child", {});
    expect(alive(grandchild)).toBe(true);
    await worker.close();
    expect(alive(worker.pid)).toBe(false);
    expect(await leftovers()).toEqual([]);
    await expect(worker.request("echo", { value: "late", delayMs: 0 })).rejects.toThrow(
      /fixture worker was stopped before command "echo" could be sent/,
    );
  });

  it("reports a throwing command with the worker's message and keeps serving", async () => {
    const worker = await start();
    const error = await rejection(worker.request("fail", { message: "no such tool: nope" }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.message).toMatch(/^fixture worker: command "fail" failed: Error: no such tool: nope/);
    expect((await worker.request("echo", { value: "still here", delayMs: 0 })).value).toBe("still here");
  });

  it("fails a command whose worker dies, naming the worker, the command, the exit and its stderr", async () => {
    const worker = await start();
    const error = await rejection(worker.request("die", { code: 3 }));
    expect(error).toMatchObject({ code: "WORKER_EXITED", worker: "fixture worker", command: "die" });
    expect(error.message).toContain('fixture worker exited (exit code 3, signal null) while running command "die"');
    expect(error.message).toContain("fixture: dying on purpose");
    expect(alive(worker.pid)).toBe(false);
    const next = await rejection(worker.request("echo", { value: "after death", delayMs: 0 }));
    expect(next.code).toBe("WORKER_EXITED");
    expect(next.message).toContain('before command "echo" could be sent');
  });

  it("fails a command that gets no answer in time and stops the worker before rejecting", async () => {
    const worker = await start({ commandTimeoutMs: 300 });
    const error = await rejection(worker.request("hang", {}));
    expect(error).toMatchObject({ code: "COMMAND_TIMED_OUT", worker: "fixture worker", command: "hang" });
    expect(error.message).toMatch(
      /^fixture worker: command "hang" got no answer within 300 ms, so the worker was stopped\./,
    );
    expect(alive(worker.pid)).toBe(false);
  });

  it("kills a worker whose event loop is blocked, and everything it started, when a command times out", async () => {
    const worker = await start({ exitGraceMs: 500 });
    const { pid: grandchild } = await worker.request("start-child", {});
    const error = await rejection(worker.request("spin", {}, { timeoutMs: 500 }));
    expect(error.code).toBe("COMMAND_TIMED_OUT");
    expect(error.stderrTail).toContain("fixture: spinning");
    expect(alive(worker.pid)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it("rejects a worker that fails while loading, with its stderr", async () => {
    const error = await rejection(start({}, { failAtStart: true }));
    expect(error.code).toBe("WORKER_START_FAILED");
    expect(error.message).toMatch(
      /^fixture worker \(.*ipc-fixture-worker\.ts\) exited before it was ready \(exit code 1, signal null\)\./,
    );
    expect(error.message).toContain("fixture: failing at start on purpose");
    expect(error.message).toContain("fixture start failure");
  });
});
