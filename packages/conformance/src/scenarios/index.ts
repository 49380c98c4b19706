import { elicitationDefaults } from "./elicitation-defaults.js";
import { initialize } from "./initialize.js";
import { oauthScenario } from "./oauth.js";
import { sseRetry } from "./sse-retry.js";
import { toolsCall } from "./tools-call.js";
import type { ScenarioClient } from "./types.js";

export type { ScenarioClient } from "./types.js";

/** The suite's auth client scenarios (0.1.16), all played by one client: login, then calls. */
export const AUTH_SCENARIOS = [
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/resource-mismatch",
  "auth/offline-access-scope",
  "auth/offline-access-not-supported",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
] as const;

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
  ...Object.fromEntries(AUTH_SCENARIOS.map((name) => [name, oauthScenario])),
};
