import type { ToolCallResult } from "@mcp-tool-adapter/registry";
import type { CodeRunResult } from "./sandbox/run-types.js";

/**
 * A run as the model reads it: the returned value as JSON, then the console lines. Both are
 * already bounded by the sandbox limits (`maxResultChars`, `maxLogChars`), so this adds no cut.
 * A failed run is a failed tool result whose errorKind is the run's error code.
 */
export function toRunToolResult(run: CodeRunResult): ToolCallResult {
  const logs = logSection(run);
  if (run.ok) {
    const value = run.value === undefined ? "(the program returned nothing)" : JSON.stringify(run.value, null, 1);
    return {
      success: true,
      data: { content: [{ type: "text", text: `${value}${logs}` }] },
      durationMs: run.durationMs,
    };
  }
  const error = run.error;
  return {
    success: false,
    error: `${error?.message ?? "the program failed"} [${error?.code ?? "program_error"}; ${run.toolCalls} tool calls made]${logs}`,
    errorKind: error?.code ?? "program_error",
    durationMs: run.durationMs,
  };
}

function logSection(run: CodeRunResult): string {
  if (run.logs.length === 0 && run.droppedLogLines === 0) return "";
  const dropped = run.droppedLogLines === 0 ? "" : `\n(${run.droppedLogLines} more lines dropped)`;
  return `\n\nconsole:\n${run.logs.join("\n")}${dropped}`;
}
