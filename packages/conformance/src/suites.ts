import { EXPECTED_FAILURES, EXPECTED_FAILURES_2026 } from "./expected-failures.js";
import { AUTH_SCENARIOS, AUTH_SCENARIOS_2026 } from "./scenarios/index.js";

/** The two runs of the suite: the stable release, and the pre-release at protocol 2026-07-28. */
export type SuiteName = "0.1.16" | "2026-07-28";

export interface Suite {
  /** The installed package (the pre-release is an npm alias beside the stable one). */
  readonly packageName: string;
  /** Arguments every `client` and `list` run of this suite gets. */
  readonly specArgs: readonly string[];
  /** The client scenarios this run plays (what the suite offers; its test fails when that changes). */
  readonly scenarios: readonly string[];
  /** Scenario name → why it cannot pass. */
  readonly expectedFailures: Readonly<Record<string, string>>;
  /**
   * Scenarios not run every time, to keep CI lean: each shares its outcome's cause with a scenario
   * that is run (the value names it), and both pass or both are expected failures with one reason.
   */
  readonly representedBy: Readonly<Record<string, string>>;
}

const SHARED_AUTH_SCENARIOS = AUTH_SCENARIOS.filter(
  (name) => !name.startsWith("auth/2025-03-26-") && !name.startsWith("auth/c"),
);

/**
 * Auth scenarios of the 2026-07-28 run left out of CI (they all passed when engine-2026 began
 * carrying OAuth; run every one with CONFORMANCE_ALL_SCENARIOS=1): each takes the same path through
 * login() and the provider as the scenario it names, which does run. All 35 take about 3 minutes of
 * wall time on a loaded 2-core machine, too much beside the 0.1.16 run of the same auth scenarios
 * on the default engine.
 */
const AUTH_2026_REPRESENTED_BY: Readonly<Record<string, string>> = {
  "auth/metadata-var1": "auth/metadata-default",
  "auth/metadata-var2": "auth/metadata-default",
  "auth/metadata-var3": "auth/metadata-default",
  "auth/scope-from-www-authenticate": "auth/metadata-default",
  "auth/scope-from-scopes-supported": "auth/metadata-default",
  "auth/scope-omitted-when-undefined": "auth/metadata-default",
  "auth/token-endpoint-auth-basic": "auth/metadata-default",
  "auth/token-endpoint-auth-post": "auth/metadata-default",
  "auth/token-endpoint-auth-none": "auth/metadata-default",
  "auth/pre-registration": "auth/basic-cimd",
  "auth/offline-access-not-supported": "auth/offline-access-scope",
};

export const SUITES: Readonly<Record<SuiteName, Suite>> = {
  "0.1.16": {
    packageName: "@modelcontextprotocol/conformance",
    specArgs: [],
    scenarios: ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", ...AUTH_SCENARIOS],
    expectedFailures: EXPECTED_FAILURES,
    representedBy: {},
  },
  "2026-07-28": {
    packageName: "@modelcontextprotocol/conformance-next",
    specArgs: ["--spec-version", "2026-07-28"],
    scenarios: [
      "tools_call",
      "request-metadata",
      "sep-2322-client-request-state",
      "http-standard-headers",
      "http-custom-headers",
      "http-invalid-tool-headers",
      "json-schema-ref-no-deref",
      "json-schema-2020-12-preservation",
      ...SHARED_AUTH_SCENARIOS,
      ...AUTH_SCENARIOS_2026,
    ],
    expectedFailures: EXPECTED_FAILURES_2026,
    representedBy: process.env.CONFORMANCE_ALL_SCENARIOS === "1" ? {} : AUTH_2026_REPRESENTED_BY,
  },
};
