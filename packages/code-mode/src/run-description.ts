import type { ResolvedSandboxLimits } from "./sandbox/limits.js";

/** The "run code" tool's description: how to write a program, its limits, then the API. */
export function runDescription(declarations: string, limits: ResolvedSandboxLimits): string {
  return [
    "Run a JavaScript or TypeScript program that calls the tools below as async functions, and get back what it returns (as JSON) and what it logs with console.log.",
    "Chain several calls in one program and return only what is needed. The code is the body of an async function: use await and return. A failed call throws ToolCallError (its errorKind says why; catch it to go on).",
    `No network, files, timers or imports; at most ${limits.maxToolCalls} tool calls, ${limits.cpuTimeMs} ms of CPU and ${limits.maxResultChars} characters of result.`,
    "",
    declarations,
  ].join("\n");
}
