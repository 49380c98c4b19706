import { loginWith } from "./login-flow.js";
import type { LoginResult } from "./login-types.js";
import { NodeOAuthClientProvider } from "./provider.js";
import type { NodeOAuthProviderOptions } from "./provider-options.js";

export interface LoginOptions extends NodeOAuthProviderOptions {
  /**
   * Shows the authorization URL to the user. Default: opens the system browser when there is a
   * display and stdout is a terminal, and always prints the URL on stderr.
   */
  showAuthorizationUrl?: (url: URL) => void | Promise<void>;
  /** Scopes to ask for now (e.g. more than the server's challenge). Default: the SDK's choice (challenge, then server metadata, then `scopes`). */
  scope?: string;
  /** Loopback port for the redirect. Default: a free one. */
  redirectPort?: number;
  /** How long to wait for the browser. Default 300 000 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type { LoginResult } from "./login-types.js";

/**
 * Logs in to an MCP server: discovery, client registration (or a configured client), PKCE and the
 * code exchange are the SDK's; the loopback listener, the browser, the state and `iss` checks,
 * and the store are ours. Nothing stored changes unless the login succeeds. With
 * `clientCredentials`, no browser is involved.
 */
export async function login(serverUrl: string | URL, options: LoginOptions = {}): Promise<LoginResult> {
  // Awaited here: a provider that cannot be built (bad options) rejects, as it always has.
  return await loginWith(new NodeOAuthClientProvider(serverUrl, options), options);
}
