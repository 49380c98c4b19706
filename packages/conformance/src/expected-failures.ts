/**
 * Client scenarios we know fail, each with the reason it cannot pass (empty when every scenario
 * passes). The test fails when a scenario listed here passes, so a fix removes its entry.
 */
export const EXPECTED_FAILURES: Readonly<Record<string, string>> = {
  "auth/scope-step-up":
    "a connection never starts a browser login by design (it fails with AUTH_REQUIRED naming `login --scope`), so it makes no second authorization request for the escalated scope",
  "auth/scope-from-www-authenticate":
    "login() starts discovery without first reading the server's 401 challenge, so it asks for scopes_supported instead of the WWW-Authenticate scope (warning); a probe request before the login would fix it",
  "auth/metadata-var3":
    "our client fails before requesting authorization-server metadata in this metadata layout; not yet investigated (session 6 ran out of time)",
  "auth/2025-03-26-oauth-metadata-backcompat":
    "the 2025-03-26 layout without protected-resource metadata is not handled by our client's flow; not yet investigated (session 6 ran out of time)",
  "auth/cross-app-access-complete-flow":
    "the cross-app access extension (token exchange + JWT bearer grant) is not implemented by @mcp-tool-adapter/oauth",
  "elicitation-sep1034-client-defaults":
    "the adapter does not yet fill in the requestedSchema's defaults for fields an accepted form answer omits (SEP-1034); fix in progress",
};
