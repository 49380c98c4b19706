import { describeCause } from "@mcp-tool-adapter/core";
import { displayName } from "./display-name.js";
import type { RegisteredTool, ToolCallContext, ToolCallResult } from "./types.js";

function describeNonResult(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object without a boolean `success`";
  return typeof value;
}

function isCallResult(value: unknown): value is ToolCallResult {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { success?: unknown }).success === "boolean"
  );
}

/** Runs a handler and turns every way it can fail into an error result. */
export async function runHandler(
  tool: RegisteredTool,
  args: Record<string, unknown>,
  context: ToolCallContext,
  now: () => number,
): Promise<ToolCallResult> {
  const startedAt = now();
  const elapsed = (): number => now() - startedAt;
  let result: unknown;
  try {
    result = await tool.handler(args, context);
  } catch (thrown) {
    return {
      success: false,
      error: `Tool ${displayName(tool.name)} failed: ${describeCause(thrown)}`,
      errorKind: "handler_error",
      durationMs: elapsed(),
    };
  }
  if (!isCallResult(result)) {
    return {
      success: false,
      error:
        `Tool ${displayName(tool.name)} returned ${describeNonResult(result)} instead of a ToolCallResult ` +
        "({ success, data?, error? }); fix its handler.",
      errorKind: "handler_error",
      durationMs: elapsed(),
    };
  }
  return { ...result, durationMs: result.durationMs ?? elapsed() };
}
