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
   * Expected failures not run every time, to keep CI lean: each shares its cause with a scenario
   * that is run (the value names it), so that one passing says the whole group can go.
   */
  readonly representedBy: Readonly<Record<string, string>>;
}

const SHARED_AUTH_SCENARIOS = AUTH_SCENARIOS.filter(
  (name) => !name.startsWith("auth/2025-03-26-") && !name.startsWith("auth/c"),
);

/** The auth scenario run for the group that fails at 2026-07-28 for one cause (no OAuth on engine-2026). */
const AUTH_2026_REPRESENTATIVE = "auth/metadata-default";

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
    representedBy: Object.fromEntries(
      Object.keys(EXPECTED_FAILURES_2026)
        .filter((name) => name.startsWith("auth/") && name !== AUTH_2026_REPRESENTATIVE)
        .map((name) => [name, AUTH_2026_REPRESENTATIVE]),
    ),
  },
};
