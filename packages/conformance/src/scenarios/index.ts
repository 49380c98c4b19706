import { elicitationDefaults } from "./elicitation-defaults.js";
import { initialize } from "./initialize.js";
import { sseRetry } from "./sse-retry.js";
import { toolsCall } from "./tools-call.js";
import type { ScenarioClient } from "./types.js";

export type { ScenarioClient } from "./types.js";

/**
 * Every client scenario we play, by the suite's scenario name. To add one: write
 * `src/scenarios/<name>.ts` exporting a ScenarioClient and add it here; the test runs every
 * entry (and fails when the suite lists a non-auth client scenario that is not here).
 */
export const SCENARIO_CLIENTS: Readonly<Record<string, ScenarioClient>> = {
  initialize,
  tools_call: toolsCall,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "sse-retry": sseRetry,
};
