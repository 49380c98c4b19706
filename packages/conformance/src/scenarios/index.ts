import { elicitationDefaults } from "./elicitation-defaults.js";
import { exerciseServer } from "./exercise-server.js";
import { initialize } from "./initialize.js";
import { jsonSchemaPreservation } from "./json-schema-preservation.js";
import { oauthScenario } from "./oauth.js";
import { requestState } from "./request-state.js";
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

/** The auth client scenarios the 0.2 suite adds for 2026-07-28, played by the same client. */
export const AUTH_SCENARIOS_2026 = [
  "auth/authorization-server-migration",
  "auth/iss-supported",
  "auth/iss-not-advertised",
  "auth/iss-supported-missing",
  "auth/iss-wrong-issuer",
  "auth/iss-unexpected",
  "auth/iss-normalized",
  "auth/metadata-issuer-mismatch",
] as const;

/**
 * Every client scenario we play, by the suite's scenario name (both suites: the client picks the
 * era from MCP_CONFORMANCE_PROTOCOL_VERSION). To add one: write `src/scenarios/<name>.ts` exporting
 * a ScenarioClient and add it here; each suite's test runs the entries its suite offers, and fails
 * when the suite offers a client scenario that is not here.
 */
export const SCENARIO_CLIENTS: Readonly<Record<string, ScenarioClient>> = {
  initialize,
  tools_call: toolsCall,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "sse-retry": sseRetry,
  "request-metadata": initialize,
  "sep-2322-client-request-state": requestState,
  "http-standard-headers": exerciseServer,
  "http-custom-headers": exerciseServer,
  "http-invalid-tool-headers": exerciseServer,
  "json-schema-ref-no-deref": initialize,
  "json-schema-2020-12-preservation": jsonSchemaPreservation,
  ...Object.fromEntries([...AUTH_SCENARIOS, ...AUTH_SCENARIOS_2026].map((name) => [name, oauthScenario])),
};
