// The sandbox worker's entry: runs programs in QuickJS on this thread, one at a time, and talks to
// the host only by messages (a program in, tool calls out, their outcomes in, console lines and the
// result out). Each program gets a fresh QuickJS module with its own memory, so nothing of one run
// reaches the next; the worker itself stays warm for the next run. The host may terminate this
// thread at any moment (a CPU or time limit, a cancel): nothing here needs to clean up after itself
// beyond what dies with the thread.
import { parentPort } from "node:worker_threads";
import { describeCause } from "@mcp-tool-adapter/core";
import { sandboxCpuNow } from "./cpu-clock.js";
import { loadQuickJS } from "./quickjs-module.js";
import { meterObserver, RunMeter, sharedNow } from "./run-meter.js";
import { runProgram } from "./run-program.js";
import type { ToolCallOutcome } from "./run-types.js";
import type { HostMessage, RunMessage, WorkerMessage } from "./worker-protocol.js";

const port = parentPort;
if (port === null) throw new Error("code-mode: the sandbox worker runs only as a worker thread");
const post = (message: WorkerMessage): void => port.postMessage(message);

const waiting = new Map<number, (outcome: ToolCallOutcome) => void>();
let nextCallId = 0;
port.on("message", (message: HostMessage) => {
  if (message.kind === "run") {
    void run(message);
    return;
  }
  waiting.get(message.callId)?.(message.outcome);
  waiting.delete(message.callId);
});

const callTool = (id: string, args: unknown): Promise<ToolCallOutcome> =>
  new Promise((resolve) => {
    const callId = nextCallId++;
    waiting.set(callId, resolve);
    post({ kind: "call", callId, id, args });
  });

async function run(request: RunMessage): Promise<void> {
  // Calls a finished program left in flight are never answered: their waits go with it.
  waiting.clear();
  try {
    const { quickjs, heap } = await loadQuickJS(request.quickjsVariant);
    const result = await runProgram({
      source: request.source,
      api: request.api,
      callTool,
      limits: request.limits,
      quickjs,
      heap,
      now: sharedNow,
      cpuNow: sandboxCpuNow(request.cpuClock),
      observer: meterObserver(new RunMeter(request.meter), (line) => post({ kind: "log", line })),
    });
    post({ kind: "done", result });
  } catch (error) {
    post({ kind: "failed", message: describeCause(error) });
  }
}
