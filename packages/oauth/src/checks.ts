import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { MCPAuthError } from "./errors.js";
import { sameIssuer } from "./loopback.js";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** https, or http to a loopback host (local development and tests). */
export function isSecureEndpoint(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

/**
 * What the SDK leaves to the host after discovery: the authorization server's metadata must name
 * the issuer it was fetched for (RFC 8414 section 3.3; the SDK deliberately skips this), and every
 * endpoint a secret or a code is sent to must be https (or loopback http).
 */
export function checkDiscoveredMetadata(state: OAuthDiscoveryState): void {
  const metadata = state.authorizationServerMetadata;
  const where = state.authorizationServerUrl;
  if (metadata === undefined) return;
  if (!sameIssuer(metadata.issuer, where)) {
    throw new MCPAuthError(
      "AUTH_FAILED",
      `The authorization server metadata fetched for ${where} names issuer ${JSON.stringify(metadata.issuer)}; ` +
        "they must be the same (RFC 8414), so the login stopped before anything was sent or stored. " +
        "The server or the network may be misconfigured or hostile; tell the server's operator.",
    );
  }
  if (!isSecureEndpoint(where)) {
    throw new MCPAuthError(
      "AUTH_FAILED",
      `The authorization server ${where} is not https; credentials are only sent over https (or to a loopback address).`,
    );
  }
  for (const field of [
    "authorization_endpoint",
    "token_endpoint",
    "registration_endpoint",
    "revocation_endpoint",
  ] as const) {
    const value = (metadata as Record<string, unknown>)[field];
    if (value !== undefined && (typeof value !== "string" || !isSecureEndpoint(value))) {
      throw new MCPAuthError(
        "AUTH_FAILED",
        `The authorization server ${where} sets ${field} to ${JSON.stringify(value)}, which is not https; ` +
          "the login stopped before anything was sent or stored.",
      );
    }
  }
}

/** The authorization URL must go to the discovered authorization endpoint and carry our redirect URI. */
export function checkAuthorizationUrl(url: URL, state: OAuthDiscoveryState | undefined, redirectUrl: string): void {
  const endpoint = state?.authorizationServerMetadata?.authorization_endpoint;
  if (!isSecureEndpoint(url.href) || (endpoint !== undefined && !url.href.startsWith(endpoint))) {
    throw new MCPAuthError(
      "AUTH_FAILED",
      `The authorization URL ${url.origin}${url.pathname} is not the authorization server's https endpoint; the browser was not opened.`,
    );
  }
  const redirect = url.searchParams.get("redirect_uri");
  if (redirect !== redirectUrl) {
    throw new MCPAuthError(
      "AUTH_CONFIG_INVALID",
      `The authorization request would redirect to ${JSON.stringify(redirect)}, not this login's loopback listener ${redirectUrl}; the browser was not opened.`,
    );
  }
}
