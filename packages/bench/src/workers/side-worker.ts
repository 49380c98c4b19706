/**
 * One side of the server-everything comparison in its own long-lived process: only this side's
 * client library is loaded and run here, as in a real deployment. The parent orchestrates the
 * rounds; every timing and CPU figure is taken here, so IPC latency never enters a number.
 * Process warnings are recorded under the phase the parent gives each command and handed over
 * with its answer.
 */
import type { BenchClient, ServerTarget } from "../clients/bench-client.js";
import { loadBenchClientFactory } from "../clients/create-client.js";
import { measureCpuMicros } from "../cpu-meter.js";
import type { Side } from "../interleave.js";
import { WarningRecorder, type RecordedWarning } from "../warnings.js";
import { serveIpcCommands } from "./serve-ipc-commands.js";
import { workerInput } from "./worker-io.js";

export interface SideWorkerInput {
  side: Side;
  /** The library this side runs: its own, or "raw" on both sides for an A/A calibration. */
  library: Side;
  target: ServerTarget;
  /** The phase warnings count under while the worker loads, before its first command. */
  startPhase: string;
}

/** Every command names the bench phase it belongs to, e.g. "stdio.latency.adapter". */
export interface PhasedParams {
  phase: string;
}

/** Every answer carries the warnings the worker recorded since its previous answer. */
export interface WarningsAnswer {
  warnings: RecordedWarning[];
}

export interface SideCommands {
  /** A fresh client: connect (handshake included) timed, then closed. */
  "connect-round": { params: PhasedParams; result: WarningsAnswer & { ms: number } };
  /** Opens the long-lived client every later command uses (for stdio, with its own server process); answers which library it runs. */
  open: { params: PhasedParams; result: WarningsAnswer & { library: Side } };
  discover: { params: PhasedParams; result: WarningsAnswer & { ms: number; toolCount: number } };
  warmup: { params: PhasedParams & { calls: number }; result: WarningsAnswer };
  /** `calls` sequential echo calls: each call's time, and this process's CPU over all of them. */
  latency: {
    params: PhasedParams & { calls: number };
    result: WarningsAnswer & { samplesMs: number[]; cpuMicros: number };
  };
  /** `calls` echo calls with `inFlight` always outstanding. */
  throughput: {
    params: PhasedParams & { calls: number; inFlight: number };
    result: WarningsAnswer & { callsPerSecond: number; cpuMicros: number };
  };
  close: { params: PhasedParams; result: WarningsAnswer };
}

const ECHO_TOOL = "echo";
const ECHO_ARGS = { message: "hello from the bench" };

const input = workerInput() as SideWorkerInput;
const warnings = new WarningRecorder();
warnings.phase = input.startPhase;
warnings.start();
const createClient = await loadBenchClientFactory(input.library);
let client: BenchClient | undefined;

function opened(): BenchClient {
  if (client === undefined) throw new Error(`${input.side} side worker: send "open" before measuring calls`);
  return client;
}

/** Runs a command under its phase and answers with its result and the warnings recorded meanwhile. */
function phased<Params extends PhasedParams, Result extends object>(
  run: (params: Params) => Promise<Result>,
): (params: Params) => Promise<Result & WarningsAnswer> {
  return async (params) => {
    warnings.phase = params.phase;
    const result = await run(params);
    // Warnings are emitted on a later tick than their cause: let the last ones land first.
    await new Promise((resolve) => setImmediate(resolve));
    return { ...result, warnings: warnings.drain() };
  };
}

/** Calls per second with `inFlight` calls always outstanding until `calls` have completed. */
async function callsPerSecond(measured: BenchClient, calls: number, inFlight: number): Promise<number> {
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started < calls) {
      started += 1;
      await measured.call(ECHO_TOOL, ECHO_ARGS);
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: Math.min(inFlight, calls) }, lane));
  return calls / ((performance.now() - begin) / 1000);
}

serveIpcCommands<SideCommands>(
  {
    "connect-round": phased(async () => {
      const fresh = createClient(input.target);
      const started = performance.now();
      await fresh.connect();
      const ms = performance.now() - started;
      await fresh.close();
      return { ms };
    }),
    open: phased(async () => {
      if (client !== undefined) throw new Error(`${input.side} side worker: the long-lived client is already open`);
      const next = createClient(input.target);
      await next.connect();
      client = next;
      return { library: next.side };
    }),
    discover: phased(async () => {
      const started = performance.now();
      const toolCount = await opened().discover();
      return { ms: performance.now() - started, toolCount };
    }),
    warmup: phased(async ({ calls }) => {
      const measured = opened();
      for (let i = 0; i < calls; i += 1) await measured.call(ECHO_TOOL, ECHO_ARGS);
      return {};
    }),
    latency: phased(async ({ calls }) => {
      const measured = opened();
      const samplesMs: number[] = [];
      const { cpuMicros } = await measureCpuMicros(async () => {
        for (let i = 0; i < calls; i += 1) {
          const started = performance.now();
          await measured.call(ECHO_TOOL, ECHO_ARGS);
          samplesMs.push(performance.now() - started);
        }
      });
      return { samplesMs, cpuMicros };
    }),
    throughput: phased(async ({ calls, inFlight }) => {
      const { value, cpuMicros } = await measureCpuMicros(() => callsPerSecond(opened(), calls, inFlight));
      return { callsPerSecond: value, cpuMicros };
    }),
    close: phased(async () => {
      const current = client;
      client = undefined;
      await current?.close();
      return {};
    }),
  },
  // The parent went away mid-scenario: close the client, so its server process ends with us.
  { onDisconnect: async () => client?.close() },
);
