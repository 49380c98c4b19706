import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeCause, redactSecrets } from "@mcp-tool-adapter/core";
import { MCPAuthError } from "./errors.js";
import type { LoginInteraction, LoginResult } from "./login-types.js";
import { randomState, startLoopbackListener } from "./loopback.js";
import { openInBrowser } from "./open-browser.js";
import { tokensExpireAt, type StoredCredentials } from "./store.js";

/**
 * The login flow on a provider it is given. `login()` gives it a new NodeOAuthClientProvider; a
 * provider that must log in interactively gives it one of its own kind. This module never
 * imports the provider's, so the provider can load it lazily without an import cycle.
 */

/** What the flow uses of NodeOAuthClientProvider. */
export interface LoginFlowProvider extends OAuthClientProvider {
  readonly serverUrl: string;
  beginInteraction(interaction: LoginInteraction): void;
  lastDiscovery(): OAuthDiscoveryState | undefined;
  commit(): Promise<StoredCredentials>;
  /** Every secret the provider holds, for redacting error text. */
  secretValues(): string[];
}

/** What the flow reads of `LoginOptions`. */
export interface LoginFlowOptions {
  showAuthorizationUrl?: ((url: URL) => void | Promise<void>) | undefined;
  scope?: string | undefined;
  redirectPort?: number | undefined;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  fetch?: FetchLike | undefined;
  /** Set: no browser is involved. */
  clientCredentials?: unknown;
}

/**
 * Logs `provider` in to its MCP server: discovery, client registration (or a configured client),
 * PKCE and the code exchange are the SDK's; the loopback listener, the browser, the state and
 * `iss` checks, and the store are ours. Nothing stored changes unless the login succeeds.
 */
export async function loginWith(provider: LoginFlowProvider, options: LoginFlowOptions): Promise<LoginResult> {
  const url = provider.serverUrl;
  const fetchOptions = options.fetch === undefined ? {} : { fetchFn: options.fetch };
  // What the server's own 401 says (its metadata URL, the scope it wants), as a connection would see it.
  const challenge = await readChallenge(url, options.fetch ?? fetch);
  const scope = options.scope ?? challenge.scope;
  const scopeOptions = {
    ...(scope === undefined ? {} : { scope }),
    ...(challenge.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
  };
  if (options.clientCredentials !== undefined) {
    return finish(provider, () => auth(provider, { serverUrl: url, ...scopeOptions, ...fetchOptions }));
  }
  const listener = await startLoopbackListener({
    ...(options.redirectPort === undefined ? {} : { port: options.redirectPort }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  try {
    const state = randomState();
    provider.beginInteraction({
      redirectUrl: listener.redirectUrl,
      state,
      ...(scope === undefined ? {} : { scope }),
      showAuthorizationUrl: options.showAuthorizationUrl ?? ((authorizationUrl) => openInBrowser(authorizationUrl)),
    });
    return await finish(provider, async () => {
      const first = await auth(provider, { serverUrl: url, ...scopeOptions, ...fetchOptions });
      if (first === "AUTHORIZED") return first;
      const { code } = await listener.waitForCode({
        state,
        issuer: () => {
          const metadata = provider.lastDiscovery()?.authorizationServerMetadata;
          return {
            ...(metadata?.issuer === undefined ? {} : { issuer: metadata.issuer }),
            issRequired:
              (metadata as Record<string, unknown> | undefined)?.authorization_response_iss_parameter_supported ===
              true,
          };
        },
      });
      return auth(provider, { serverUrl: url, authorizationCode: code, ...scopeOptions, ...fetchOptions });
    });
  } finally {
    await listener.close();
  }
}

/**
 * What an unauthenticated request is told: a 401's WWW-Authenticate, or nothing when the server
 * answers otherwise. First an initialize (a 2025 connection's first request); a server that lets
 * initialize through unauthenticated is asked once more with tools/list (the first request a
 * 2026-07-28 connection makes after discovery also needs the token).
 */
async function readChallenge(url: string, fetchFn: FetchLike): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  for (const method of ["initialize", "tools/list"]) {
    const challenge = await challengeOf(url, fetchFn, method);
    if (challenge !== undefined) return challenge;
  }
  return {};
}

async function challengeOf(
  url: string,
  fetchFn: FetchLike,
  method: string,
): Promise<{ resourceMetadataUrl?: URL; scope?: string } | undefined> {
  try {
    const params =
      method === "initialize"
        ? { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mcp-tool-adapter", version: "0" } }
        : {};
    const response = await fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method, params }),
    });
    await response.body?.cancel();
    if (response.status !== 401) return undefined;
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return {
      ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
      ...(scope === undefined ? {} : { scope }),
    };
  } catch {
    // Unreachable now: discovery reports it in its own words.
    return {};
  }
}

async function finish(provider: LoginFlowProvider, run: () => Promise<string>): Promise<LoginResult> {
  let result: string;
  try {
    result = await run();
  } catch (error) {
    throw asAuthError(error, provider);
  }
  if (result !== "AUTHORIZED") {
    throw new MCPAuthError("AUTH_FAILED", `The login to ${provider.serverUrl} did not end with tokens. Run it again.`);
  }
  const record = await provider.commit();
  const expiresAt = tokensExpireAt(record);
  return {
    resource: record.resource,
    ...(record.authorizationServer === undefined ? {} : { authorizationServer: record.authorizationServer }),
    ...(record.tokens?.scope === undefined ? {} : { scope: record.tokens.scope }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

/** Any failure of the flow as an MCPAuthError whose text carries none of the flow's secrets. */
export function asAuthError(error: unknown, provider: LoginFlowProvider): MCPAuthError {
  if (MCPAuthError.isInstance(error)) return error;
  const secrets = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === "string" && value.length >= 8) secrets.add(value);
  };
  for (const value of provider.secretValues()) add(value);
  return new MCPAuthError(
    "AUTH_FAILED",
    `The login to ${provider.serverUrl} failed: ${redactSecrets(describeCause(error), secrets)}. Nothing was stored; check the server's auth settings and run the login again.`,
  );
}
