import { once } from "node:events";
import type { Worker } from "node:worker_threads";
import { ToolRegistry, type ToolCallResult } from "@mcp-tool-adapter/registry";
import { afterEach, describe, expect, it } from "vitest";
import { createCodeMode, type CodeMode } from "../src/index.js";
import { resolveSandboxLimits } from "../src/sandbox/limits.js";
import { runInWorker } from "../src/sandbox/run-in-worker.js";
import { createSandboxWorkers, type SandboxWorkers } from "../src/sandbox/sandbox-workers.js";

const SLOW_TEST_MS = 60_000;

function echoRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register("demo", {
    name: "echo",
    description: "Returns its arguments",
    inputSchema: { type: "object" },
    capabilities: { readOnly: true, writes: false },
    source: "test",
    sourceMetadata: {},
    checkpointable: false,
    handler: (args): ToolCallResult => ({ success: true, data: { echoed: args } }),
  });
  return registry;
}

/** The real worker set, with the workers it hands out recorded (in order). */
function recordingWorkers(keepWarmMs: number): { workers: SandboxWorkers; handedOut: Worker[] } {
  const real = createSandboxWorkers({ keepWarmMs, memoryBytes: 32 * 1024 * 1024 });
  const handedOut: Worker[] = [];
  return {
    handedOut,
    workers: {
      acquire: () => {
        const worker = real.acquire();
        handedOut.push(worker);
        return worker;
      },
      release: (worker) => real.release(worker),
      close: () => real.close(),
    },
  };
}

const limits = resolveSandboxLimits({ cpuTimeMs: 60_000 });
const run = (workers: SandboxWorkers, source: string, signal?: AbortSignal) =>
  runInWorker({
    source,
    api: {},
    callTool: () => Promise.resolve({ ok: false, error: "no tools", errorKind: "not_found" }),
    limits,
    workers,
    now: () => performance.now(),
    signal,
  });

let codeMode: CodeMode | undefined;
let workers: SandboxWorkers | undefined;
afterEach(() => {
  codeMode?.close();
  codeMode = undefined;
  workers?.close();
  workers = undefined;
});

describe("a warm sandbox worker serves the next run", () => {
  it(
    "keeps the worker of a run that ended by itself, ends one the host stopped, and ends the idle one at close()",
    async () => {
      const recorded = recordingWorkers(60_000);
      workers = recorded.workers;
      const { handedOut } = recorded;
      expect(await run(workers, "return 1;")).toMatchObject({ ok: true, value: 1 });
      expect(await run(workers, "throw new Error('caught by the run, not the worker');")).toMatchObject({
        error: { code: "program_error" },
      });
      expect(handedOut[1]).toBe(handedOut[0]);
      const stopped = handedOut[0] as Worker;
      const stoppedExit = once(stopped, "exit");
      // Stopped from outside (the caller's abort; the watchdog's limits end a worker the same way).
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("stop")), 200).unref();
      expect(await run(workers, "while (true) {}", controller.signal)).toMatchObject({
        error: { code: "program_error" },
      });
      expect(handedOut[2]).toBe(stopped);
      await stoppedExit;
      expect(await run(workers, "return 2;")).toMatchObject({ ok: true, value: 2 });
      const fresh = handedOut[3] as Worker;
      expect(fresh).not.toBe(stopped);
      const freshExit = once(fresh, "exit");
      workers.close();
      await freshExit;
    },
    SLOW_TEST_MS,
  );

  it(
    "ends an idle worker after keepWarmMs, and keeps none with keepWarmMs 0",
    async () => {
      const warm = recordingWorkers(50);
      workers = warm.workers;
      await run(workers, "return 1;");
      await once(warm.handedOut[0] as Worker, "exit");
      workers.close();
      const cold = recordingWorkers(0);
      workers = cold.workers;
      await run(workers, "return 1;");
      await run(workers, "return 1;");
      expect(cold.handedOut[1]).not.toBe(cold.handedOut[0]);
    },
    SLOW_TEST_MS,
  );

  it(
    "isolates runs on the warm worker: no global, prototype change or pending job of one run reaches the next",
    async () => {
      codeMode = await createCodeMode(echoRegistry());
      const first = await codeMode.run(`
        globalThis.leak = 42;
        Object.prototype.polluted = "yes";
        (demo as any).extra = 1;
        Promise.resolve().then(() => { globalThis.late = true; });
        return "set";`);
      expect(first).toMatchObject({ ok: true, value: "set" });
      const second = await codeMode.run(`
        return [typeof (globalThis as any).leak, ({} as any).polluted ?? "clean", typeof (globalThis as any).late,
          await demo.echo({ n: 1 })];`);
      expect(second).toMatchObject({ ok: true, value: ["undefined", "clean", "undefined", { echoed: { n: 1 } }] });
    },
    SLOW_TEST_MS,
  );
});
