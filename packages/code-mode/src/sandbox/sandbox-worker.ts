// The sandbox worker's entry: runs one program in QuickJS on this thread and talks to the host
// only by messages (tool calls out, their outcomes in, console lines and the result out). The host
// may terminate this thread at any moment (a CPU or time limit, a cancel): nothing here needs to
// clean up after itself beyond what dies with the thread.
import { parentPort, workerData } from "node:worker_threads";
import { describeCause } from "@mcp-tool-adapter/core";
import { loadQuickJS } from "./quickjs-module.js";
import { meterObserver, RunMeter, sharedNow } from "./run-meter.js";
import { runProgram } from "./run-program.js";
import type { ToolCallOutcome } from "./run-types.js";
import type { HostMessage, SandboxWorkerData, WorkerMessage } from "./worker-protocol.js";

const port = parentPort;
if (port === null) throw new Error("code-mode: the sandbox worker runs only as a worker thread");
const data = workerData as SandboxWorkerData;
const post = (message: WorkerMessage): void => port.postMessage(message);

const waiting = new Map<number, (outcome: ToolCallOutcome) => void>();
let nextCallId = 0;
port.on("message", (message: HostMessage) => {
  waiting.get(message.callId)?.(message.outcome);
  waiting.delete(message.callId);
});

const callTool = (id: string, args: unknown): Promise<ToolCallOutcome> =>
  new Promise((resolve) => {
    const callId = nextCallId++;
    waiting.set(callId, resolve);
    post({ kind: "call", callId, id, args });
  });

try {
  const { quickjs, heap } = await loadQuickJS(data.quickjsVariant);
  const result = await runProgram({
    source: data.source,
    api: data.api,
    callTool,
    limits: data.limits,
    quickjs,
    heap,
    now: sharedNow,
    observer: meterObserver(new RunMeter(data.meter), (line) => post({ kind: "log", line })),
  });
  post({ kind: "done", result });
} catch (error) {
  post({ kind: "failed", message: describeCause(error) });
}
