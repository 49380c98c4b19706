import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { MCPAuthError } from "./errors.js";
import type { CrossAppAccessOptions } from "./provider-options.js";

const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

/** Where the identity assertion grant is for: the MCP server's authorization server and resource. */
export interface AssertionTarget {
  /** The authorization server's issuer, which takes the grant. */
  audience: string;
  /** The MCP server (its protected-resource metadata's `resource`). */
  resource: string;
  scope: string | undefined;
}

/**
 * Cross-app access's first leg (RFC 8693 token exchange at the identity provider): the user's ID
 * token in, an identity assertion grant (ID-JAG) out. A failure is AUTH_FAILED naming the identity
 * provider, since the user's fix is there (a stale ID token, a client not allowed to exchange).
 */
export async function exchangeIdTokenForAssertion(
  options: CrossAppAccessOptions,
  target: AssertionTarget,
  fetchFn: FetchLike,
): Promise<string> {
  const idToken = typeof options.idToken === "string" ? options.idToken : await options.idToken();
  const exchange = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: ID_JAG,
    subject_token: idToken,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    audience: target.audience,
    resource: target.resource,
  });
  if (target.scope) exchange.set("scope", target.scope);
  if (options.idpClientId !== undefined) exchange.set("client_id", options.idpClientId);
  let response: Response;
  try {
    response = await fetchFn(options.idpTokenEndpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: exchange,
      redirect: "error",
    });
  } catch (error) {
    throw new MCPAuthError(
      "AUTH_FAILED",
      `The identity provider's token endpoint ${options.idpTokenEndpoint} could not be reached (${error instanceof Error ? error.message : String(error)}). Check idpTokenEndpoint.`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as
    { access_token?: unknown; issued_token_type?: unknown; error?: unknown } | undefined;
  if (!response.ok || typeof body?.access_token !== "string" || body.issued_token_type !== ID_JAG) {
    const reason = typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
    throw new MCPAuthError(
      "AUTH_FAILED",
      `The identity provider at ${options.idpTokenEndpoint} did not exchange the ID token for an identity assertion grant (${reason}). ` +
        "Check that the ID token is current and that this client may use cross-app access there.",
    );
  }
  return body.access_token;
}

/** The second leg's token request (RFC 7523 JWT bearer grant) at the MCP server's authorization server. */
export function jwtBearerGrantParams(assertion: string, scope: string | undefined): URLSearchParams {
  const params = new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion });
  if (scope) params.set("scope", scope);
  return params;
}
