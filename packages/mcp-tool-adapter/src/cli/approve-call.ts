import { needsApproval } from "@mcp-tool-adapter/model-tools";
import type { RegisteredTool } from "@mcp-tool-adapter/registry";
import type { CliContext } from "./io.js";

/**
 * The CLI's approval for `call`: a tool that may write (the "writes" policy, on the tool's
 * registered capabilities, config overrides included) is called only after a y/N on the terminal,
 * or with --yes. Returns why the call is refused, or undefined when it may go.
 */
export async function refuseUnapprovedCall(
  context: CliContext,
  target: string,
  tool: RegisteredTool,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  if (!(await needsApproval("writes", tool, args))) return undefined;
  const what =
    tool.capabilities.destructive === true ? "may write destructively" : "may write (it is not known to be read-only)";
  if (!context.isStdinTTY()) {
    return `refused: ${target} ${what}, and stdin is not a terminal to ask for approval; pass --yes to call it without asking`;
  }
  const approved = await context.confirm(`${target} ${what}. Call it with ${JSON.stringify(args)}?`);
  return approved ? undefined : `refused: the call to ${target} was not approved`;
}
