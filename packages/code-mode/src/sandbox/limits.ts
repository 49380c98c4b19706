import { positiveOr } from "@mcp-tool-adapter/core/value-rules";

/** What one program may use. Every limit ends the program with a classified error, never the host. */
export interface SandboxLimits {
  /**
   * Time the program itself may run in the interpreter (tool calls excluded), ms; default 2000. On
   * Node 24 (`process.threadCpuUsage` and `worker.cpuUsage`) it is the sandbox thread's CPU time;
   * on Node 20 and 22, which have no per-thread CPU clock, wall time while the interpreter runs.
   */
  cpuTimeMs?: number;
  /** Wall-clock time of the whole run, tool calls and approvals included, ms; default 120000. */
  totalTimeMs?: number;
  /**
   * What the program may allocate, bytes; default 32 MiB. Held by the sandbox's WebAssembly memory,
   * which may grow by this much past what the engine itself uses (QuickJS's own count misses most
   * of a program's memory under Emscripten).
   */
  memoryBytes?: number;
  /**
   * The interpreter's stack, bytes; default 256 KiB (about 1300 levels of recursion). QuickJS runs on
   * V8's own stack too: past about 256 KiB V8's limit comes first and the run ends as `stack_overflow` all the same.
   */
  stackBytes?: number;
  /** Tool calls one program may make; default 50. */
  maxToolCalls?: number;
  /** Longest JSON of the returned value, characters; default 20000. */
  maxResultChars?: number;
  /** Characters of console output kept; default 8000 (later lines are dropped and counted). */
  maxLogChars?: number;
}

export type ResolvedSandboxLimits = Readonly<Required<SandboxLimits>>;

export const DEFAULT_SANDBOX_LIMITS: ResolvedSandboxLimits = Object.freeze({
  cpuTimeMs: 2_000,
  totalTimeMs: 120_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxToolCalls: 50,
  maxResultChars: 20_000,
  maxLogChars: 8_000,
});

/** Each limit kept when positive, else its default (core's one rule for optional numbers). */
export function resolveSandboxLimits(limits: SandboxLimits = {}): ResolvedSandboxLimits {
  const resolved = {} as Record<keyof SandboxLimits, number>;
  for (const key of Object.keys(DEFAULT_SANDBOX_LIMITS) as (keyof SandboxLimits)[])
    resolved[key] = positiveOr(limits[key], DEFAULT_SANDBOX_LIMITS[key]);
  return Object.freeze(resolved);
}
