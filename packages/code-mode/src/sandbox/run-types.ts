/**
 * Why a program did not finish with a value. Each is stable: a host or a model can act on it.
 * - `syntax_error`: the code did not parse (TypeScript types are stripped first).
 * - `program_error`: the program threw (or rejected) and did not catch it.
 * - `tool_call_failed`: a tool call failed and the program did not catch the ToolCallError.
 * - `cpu_time_limit`, `total_time_limit`, `memory_limit`, `stack_overflow`, `too_many_tool_calls`:
 *   a limit of {@link SandboxLimits} was reached; the program was stopped.
 * - `result_too_large`, `result_not_serializable`: the returned value is over `maxResultChars` or not JSON.
 * - `never_settles`: the program awaits something no tool call or job will ever settle.
 * - `sandbox_failure`: the WebAssembly engine itself failed; the run was dropped (the host goes on).
 */
export type CodeRunErrorCode =
  | "syntax_error"
  | "program_error"
  | "tool_call_failed"
  | "cpu_time_limit"
  | "total_time_limit"
  | "memory_limit"
  | "stack_overflow"
  | "too_many_tool_calls"
  | "result_too_large"
  | "result_not_serializable"
  | "never_settles"
  | "sandbox_failure";

export interface CodeRunError {
  readonly code: CodeRunErrorCode;
  /** What failed and what to do, for the model that wrote the program. */
  readonly message: string;
  /** With `tool_call_failed`: the failed call's errorKind ("validation", "refused", "server_error", ...). */
  readonly errorKind?: string;
  /** With `tool_call_failed`: the API name of the tool (`memory.read_graph`). */
  readonly tool?: string;
}

/** What one run of a program gave. */
export interface CodeRunResult {
  readonly ok: boolean;
  /** The program's return value (JSON data), when ok; undefined when it returned nothing. */
  readonly value?: unknown;
  readonly error?: CodeRunError;
  /** Console lines, `[level] text` for levels other than log, within `maxLogChars`. */
  readonly logs: readonly string[];
  /** Console lines dropped past `maxLogChars`. */
  readonly droppedLogLines: number;
  /** Tool calls the program made (refused and failed ones included). */
  readonly toolCalls: number;
  readonly durationMs: number;
}

/** One tool call's outcome as the program sees it: a value, or a failure it receives as a ToolCallError. */
export type ToolCallOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: string; readonly errorKind: string };

/**
 * What a host watching the run from another thread needs while it runs: when the interpreter is
 * busy (its CPU clock), and the console lines, so a run the host ends from outside keeps them.
 */
export interface RunObserver {
  /** The interpreter started running program code at `at` (the request's clock). */
  sliceStarted(at: number): void;
  /** It stopped; the program has used `cpuUsedMs` in all. */
  sliceEnded(cpuUsedMs: number): void;
  logKept(line: string): void;
  logDropped(droppedLogLines: number): void;
}
