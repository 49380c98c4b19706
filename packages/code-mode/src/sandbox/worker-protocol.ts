import type { CpuClockKind } from "./cpu-clock.js";
import type { ResolvedSandboxLimits } from "./limits.js";
import type { CodeRunResult, ToolCallOutcome } from "./run-types.js";

/** Host to worker: run one program (a worker runs one at a time, each in a fresh QuickJS module). */
export interface RunMessage {
  readonly kind: "run";
  readonly source: string;
  readonly api: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly limits: ResolvedSandboxLimits;
  /** The quickjs-emscripten sync variant to import; undefined for the release build. */
  readonly quickjsVariant: string | undefined;
  /** The run's RunMeter's shared memory. */
  readonly meter: SharedArrayBuffer;
  /** The clock the CPU budget runs on, as the host reads it too. */
  readonly cpuClock: CpuClockKind;
}

/** Host to worker: a tool call's outcome. */
export interface OutcomeMessage {
  readonly kind: "outcome";
  readonly callId: number;
  readonly outcome: ToolCallOutcome;
}

export type HostMessage = RunMessage | OutcomeMessage;

/** Worker to host: a tool call to make, a console line kept, the run's result, or a sandbox that could not start. */
export type WorkerMessage =
  | { readonly kind: "call"; readonly callId: number; readonly id: string; readonly args: unknown }
  | { readonly kind: "log"; readonly line: string }
  | { readonly kind: "done"; readonly result: CodeRunResult }
  | { readonly kind: "failed"; readonly message: string };
