import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "./guarded-fetch.js";

export interface AuthorizeRequest {
  provider: OAuthClientProvider;
  serverUrl: URL;
  resourceMetadataUrl: URL | undefined;
  scope: string | undefined;
  fetch: FetchLike;
}

/**
 * Runs SDK 1.x's OAuth flow (discovery, registration, refresh, or the provider's redirect to a
 * login) and resolves once the provider holds tokens; throws the SDK's UnauthorizedError when it
 * does not. The SDK's auth module (and the `types.js` it imports) loads only here, on a 401 or
 * 403: a server without OAuth never pays for it.
 */
export async function authorize(request: AuthorizeRequest): Promise<void> {
  const { auth, UnauthorizedError } = await import("@modelcontextprotocol/sdk/client/auth.js");
  const result = await auth(request.provider, {
    serverUrl: request.serverUrl,
    resourceMetadataUrl: request.resourceMetadataUrl,
    scope: request.scope,
    fetchFn: request.fetch,
  });
  if (result !== "AUTHORIZED") throw new UnauthorizedError();
}
