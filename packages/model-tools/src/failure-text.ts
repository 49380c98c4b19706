import type { ToolCallResult } from "@mcp-tool-adapter/registry";

/** What a model can do about each kind of failure, in words it can act on. */
const NEXT_STEP: Readonly<Record<string, string>> = {
  validation:
    "Fix the arguments so they match the tool's input schema (see the problems above) and call the tool again.",
  not_found: "This tool is not available (any more). Do not call it again; pick another tool from the current list.",
  timeout: "The tool did not answer in time. Try again later, or ask for less at once.",
  cancelled: "The call was cancelled by the application. Do not retry it unless the user asks for it again.",
  server_error:
    "The tool reported an error. If the message says the arguments were wrong, fix them and call again; otherwise try again later or use another tool.",
  connection_lost:
    "The connection to the tool's server was lost. Try again later; the tool may be back after a reconnect.",
  result_too_large:
    "The result was too large to return. Call the tool again asking for less (a narrower query, a smaller range, fewer items).",
  unavailable:
    "The tool's server is down and calls to it fail for now. Do not retry it right away; continue without it or try again much later.",
  outcome_unknown:
    "The call was cut off and may or may not have taken effect. Do not simply repeat it: first check (with a read-only tool) whether it took effect.",
  handler_error: "The tool failed internally. Try again later or use another tool.",
  approval_denied:
    "The user did not approve this call. Do not retry it; tell the user what you wanted to do, or continue without it.",
};
const DEFAULT_NEXT_STEP = "Try again later, or continue without this tool.";

/** A failed call as text a model reads: what failed, its errorKind, and what it can do next. */
export function failureText(result: ToolCallResult): string {
  const kind = result.errorKind ?? "unknown";
  const message =
    result.error === undefined || result.error === "" ? "the tool call failed without a message" : result.error;
  return `Error (errorKind: ${kind}): ${message}\nNext step: ${NEXT_STEP[kind] ?? DEFAULT_NEXT_STEP}`;
}
