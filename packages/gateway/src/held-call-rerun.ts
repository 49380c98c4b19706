import { isSafeToRepeat } from "@mcp-tool-adapter/adapter";
import { trace } from "@opentelemetry/api";
import type { CatalogTool } from "./catalog.js";
import { holderGone, type GoneHolder } from "./held-call-retries.js";
import type { SealedCall } from "./request-state-seal.js";

// The retry of a call whose holder copy is gone, answered by the copy it reached: the call runs
// again here when its tool is safe to repeat (held-call-retries.ts says why only then).
//
// The answers the retry carries are not used: they answered the dead copy's question, asked by a
// run that is gone, possibly after earlier rounds this run will ask again. The rerun's questions are
// numbered from its own first one, so an answer keyed for the dead run's third question would land
// on the rerun's first, and even one asked in the same words may mean something else now (a URL
// elicitation's id, a choice among what the upstream sees now). Recognising the same question would
// take a digest of every question in the state; asking again costs the client one more round, only
// on the rare retry whose holder died, and it always answers what is being asked.

/** The span event of a call run again because the copy holding it was gone. */
export const RERUN_EVENT = "mcp_tool_adapter.gateway.rerun";
/** The gone holder's URL, on the rerun event. */
export const ATTR_GONE_HOLDER = "mcp_tool_adapter.gateway.gone_holder";
/** Why the holder was taken as gone, on the rerun event. */
export const ATTR_GONE_HOLDER_REASON = "mcp_tool_adapter.gateway.gone_holder.reason";

/**
 * The arguments to run the call again with: the sealed ones (exactly what was asked, and approved
 * when approval applied, whatever the retry carries). REQUEST_STATE_HOLDER_GONE, saying why, when
 * the call may not run again: its state carries no arguments (its tool was not safe to repeat when
 * it asked), or this copy's view of the tool no longer takes it as safe to repeat. A rerun is
 * recorded as an event on the active span (the retry's tools/call span).
 */
export function rerunArguments(sealed: SealedCall, gone: GoneHolder, tool: CatalogTool): Record<string, unknown> {
  const { holder, why } = gone;
  if (sealed.arguments === undefined) {
    throw holderGone(
      holder,
      why,
      `when it asked, the gateway took "${tool.exposedName}" as a tool that may change something (neither read-only nor idempotent by the config's overrides, its annotations or its name), and running it again would repeat what it did before it asked`,
    );
  }
  if (!isSafeToRepeat(tool.capabilities)) {
    throw holderGone(
      holder,
      why,
      `this copy now takes "${tool.exposedName}" as a tool that may change something (its definition or the config's overrides changed since it asked), and running it again could repeat what it did`,
    );
  }
  trace.getActiveSpan()?.addEvent(RERUN_EVENT, { [ATTR_GONE_HOLDER]: holder.url, [ATTR_GONE_HOLDER_REASON]: why });
  return sealed.arguments;
}
