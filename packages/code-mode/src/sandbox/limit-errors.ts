import type { ResolvedSandboxLimits } from "./limits.js";
import type { CodeRunError } from "./run-types.js";

// The errors a run ends with when it meets a limit or the sandbox fails, in one place: the
// interpreter (inside the worker) and the host's watchdog (outside it) end runs the same way.

export function cpuTimeLimitError(limits: ResolvedSandboxLimits): CodeRunError {
  return {
    code: "cpu_time_limit",
    message: `the program used more than ${limits.cpuTimeMs} ms of CPU time (an endless loop?); it was stopped`,
  };
}

export function totalTimeLimitError(limits: ResolvedSandboxLimits): CodeRunError {
  return {
    code: "total_time_limit",
    message: `the program ran out of its total time (${limits.totalTimeMs} ms, tool calls included); do less per run or fewer calls`,
  };
}

export function memoryLimitError(limits: ResolvedSandboxLimits): CodeRunError {
  return {
    code: "memory_limit",
    message: `the program ran out of memory (limit ${limits.memoryBytes} bytes); keep less data at once`,
  };
}

export function sandboxFailure(detail: string): CodeRunError {
  return { code: "sandbox_failure", message: `the sandbox failed (${detail}); run the program again` };
}
