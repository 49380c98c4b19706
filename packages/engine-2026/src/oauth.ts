import { isStepUpAuthProvider, type MCPEngineAuthProvider, type StepUpAuthProvider } from "@mcp-tool-adapter/core";
import {
  extractWWWAuthenticateParams,
  UnauthorizedError,
  type FetchLike,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";

/**
 * The optional methods of an OAuth client provider that both SDKs call the same way, with plain
 * JSON values (tokens, client information, discovery state, URLSearchParams). Each is carried over
 * only when the provider has it: the SDK changes course on whether a method exists.
 */
const OPTIONAL_METHODS = [
  "state",
  "saveClientInformation",
  "addClientAuthentication",
  "validateResourceURL",
  "invalidateCredentials",
  "prepareTokenRequest",
  "saveDiscoveryState",
  "discoveryState",
] as const;

type AnyMethod = (...args: unknown[]) => unknown;

/**
 * The SDK 2.x provider for an SDK 1.x-shaped one (the seam's `authProvider`, e.g.
 * `@mcp-tool-adapter/oauth`'s `NodeOAuthClientProvider`): each method calls the provider's own
 * with the arguments SDK 1.x passes (2.x's issuer context is left out: our providers key their
 * store by server), so neither SDK's objects reach the other.
 */
export function toSdkOAuthProvider(provider: MCPEngineAuthProvider): OAuthClientProvider {
  const source = provider as Record<string, unknown>;
  const call = (name: string, ...args: unknown[]): unknown => (source[name] as AnyMethod).call(provider, ...args);
  const adapted: Record<string, unknown> = {
    get redirectUrl() {
      return source.redirectUrl;
    },
    get clientMetadata() {
      return source.clientMetadata;
    },
    get clientMetadataUrl() {
      return source.clientMetadataUrl;
    },
    clientInformation: () => call("clientInformation"),
    tokens: () => call("tokens"),
    saveTokens: (tokens: unknown) => call("saveTokens", tokens),
    redirectToAuthorization: (url: URL) => call("redirectToAuthorization", url),
    saveCodeVerifier: (verifier: string) => call("saveCodeVerifier", verifier),
    codeVerifier: () => call("codeVerifier"),
  };
  for (const name of OPTIONAL_METHODS) {
    if (typeof source[name] === "function") adapted[name] = (...args: unknown[]) => call(name, ...args);
  }
  return adapted as unknown as OAuthClientProvider;
}

/** The step-up half of the provider (core's StepUpAuthProvider), when it has one. */
export function stepUpOf(provider: MCPEngineAuthProvider | undefined): StepUpAuthProvider | undefined {
  return isStepUpAuthProvider(provider) ? provider : undefined;
}

/**
 * Tells a step-up provider which scopes a `403 insufficient_scope` named, before the SDK reacts to
 * it: the SDK's own step-up then authorizes with what the provider asks for (the scopes granted
 * plus the new ones, or a login with a human when the provider may start one).
 */
export function reportingScopeChallenges(fetchFn: FetchLike, stepUp: StepUpAuthProvider): FetchLike {
  return async (input, init) => {
    const response = await fetchFn(input, init);
    if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error === "insufficient_scope") await stepUp.noteInsufficientScope(scope);
    }
    return response;
  };
}

/**
 * Sends `message` once more when the SDK gave up with "unauthorized" right after the provider ran
 * a login with a human (a step-up, or a first login during a connection) and stored new tokens:
 * the SDK reads the login as a redirect it cannot wait for, while the tokens are already there.
 */
export async function againAfterFreshLogin<T>(
  send: () => Promise<T>,
  stepUp: StepUpAuthProvider | undefined,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (stepUp === undefined || !(error instanceof UnauthorizedError) || !stepUp.takeFreshLogin()) throw error;
    return send();
  }
}
