/**
 * Client scenarios we know fail, each with the reason it cannot pass (empty when every scenario
 * passes). The test fails when a scenario listed here passes, so a fix removes its entry.
 */
export const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  "auth/2025-03-26-oauth-metadata-backcompat":
    "deliberate: without protected-resource metadata the SDK takes the MCP server's origin as the authorization server, and this server's metadata names another issuer (<origin>/oauth); our RFC 8414 issuer check refuses that mismatch",
};

/**
 * The same for the pre-release suite's run at protocol 2026-07-28 (`--spec-version 2026-07-28`),
 * where the client speaks 2026-07-28 through engine-2026.
 */
export const EXPECTED_FAILURES_2026: Readonly<Record<string, string>> = {};
