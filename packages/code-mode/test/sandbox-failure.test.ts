import { describe, expect, it } from "vitest";
import { resolveSandboxLimits } from "../src/sandbox/limits.js";
import { runInWorker, type WorkerRunRequest } from "../src/sandbox/run-in-worker.js";

// sandbox_failure for real: a worker that cannot start, one whose entry throws, one that dies
// mid-run. (A QuickJS module that does not load is in worker.test.ts, through quickjsVariant.)

function request(workerEntry: URL, signals: AbortSignal[] = []): WorkerRunRequest {
  return {
    source: "return 1;",
    api: { demo: { echo: "demo/echo" } },
    callTool: (_id, _args, signal) => {
      signals.push(signal);
      return new Promise((resolve) =>
        signal.addEventListener("abort", () => resolve({ ok: false, error: "aborted", errorKind: "cancelled" })),
      );
    },
    limits: resolveSandboxLimits({}),
    workerEntry,
    now: () => performance.now(),
  };
}

describe("a sandbox that fails is sandbox_failure, and the host goes on", () => {
  it("a worker entry that does not exist", async () => {
    const result = await runInWorker(request(new URL("./fixtures/no-such-worker.mjs", import.meta.url)));
    expect(result).toMatchObject({ ok: false, toolCalls: 0, error: { code: "sandbox_failure" } });
    expect(result.error?.message).toContain("no-such-worker.mjs");
  });

  it("a worker entry that throws as it loads", async () => {
    const result = await runInWorker(request(new URL("./fixtures/throwing-worker.mjs", import.meta.url)));
    expect(result).toMatchObject({ ok: false, error: { code: "sandbox_failure" } });
    expect(result.error?.message).toContain("the sandbox entry is broken");
  });

  it("a worker that dies mid-run, with a tool call in flight (aborted) and a log line kept", async () => {
    const signals: AbortSignal[] = [];
    const result = await runInWorker(request(new URL("./fixtures/exiting-worker.mjs", import.meta.url), signals));
    expect(result).toMatchObject({
      ok: false,
      toolCalls: 1,
      logs: ["about to die"],
      error: { code: "sandbox_failure" },
    });
    expect(result.error?.message).toContain("exited with code 3");
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  });
});
