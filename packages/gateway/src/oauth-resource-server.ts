import type { IncomingMessage } from "node:http";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from "jose";
import { GatewayError } from "./errors.js";
import { bearerToken } from "./http-guard.js";

/**
 * OAuth resource-server mode: downstream clients bring an access token from your authorization
 * server (the issuer); the gateway checks its signature against the issuer's published keys
 * (JWKS), its issuer, its audience (this gateway's URL, RFC 8707) and its expiry, and publishes
 * protected-resource metadata (RFC 9728) so a client can find where to log in.
 */
export interface OAuthResourceServerOptions {
  /** The authorization server's issuer identifier (`iss` of its tokens), e.g. https://auth.example.com */
  issuer: string;
  /** This gateway as clients reach it (the token's `aud` must name it), e.g. https://mcp.example.com/mcp */
  resource: string;
  /** Where the issuer's keys are; default: `jwks_uri` of its metadata (oauth-authorization-server, then openid-configuration). */
  jwksUri?: string;
  /** Scopes every token must carry (`scope` claim, space-separated). */
  requiredScopes?: readonly string[];
  /** For the metadata lookup; default globalThis.fetch. */
  fetch?: typeof fetch;
}

/** What `listenHttp` needs of the resource-server mode: the check and the metadata it serves. */
export interface OAuthResourceServer {
  readonly authorize: (request: IncomingMessage) => Promise<void>;
  /** RFC 9728 protected-resource metadata. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

export function createOAuthResourceServer(options: OAuthResourceServerOptions): OAuthResourceServer {
  const doFetch = options.fetch ?? fetch;
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const loadKeys = (): Promise<ReturnType<typeof createRemoteJWKSet>> => {
    keys ??= findJwksUri(options, doFetch).then((uri) => createRemoteJWKSet(new URL(uri)));
    // A failed lookup is tried again at the next request.
    keys.catch(() => {
      keys = undefined;
    });
    return keys;
  };
  const metadata = {
    resource: options.resource,
    authorization_servers: [options.issuer],
    bearer_methods_supported: ["header"],
    ...(options.requiredScopes === undefined ? {} : { scopes_supported: [...options.requiredScopes] }),
  };
  return {
    metadata,
    async authorize(request) {
      const token = bearerToken(request);
      if (token === undefined) {
        throw new GatewayError(
          "UNAUTHORIZED",
          `No access token: send \`Authorization: Bearer <token>\` from ${options.issuer}.`,
        );
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await loadKeys(), {
          issuer: options.issuer,
          audience: options.resource,
        }));
      } catch (error) {
        throw new GatewayError("UNAUTHORIZED", `The access token was refused: ${why(error, options)}.`, {
          cause: error,
        });
      }
      const granted = new Set(typeof payload.scope === "string" ? payload.scope.split(" ") : []);
      const missing = (options.requiredScopes ?? []).filter((scope) => !granted.has(scope));
      if (missing.length > 0) {
        throw new GatewayError(
          "UNAUTHORIZED",
          `The access token lacks the scope(s) ${missing.join(", ")}: ask ${options.issuer} for them.`,
        );
      }
    },
  };
}

function why(error: unknown, options: OAuthResourceServerOptions): string {
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return `it was issued for another audience, not ${options.resource}`;
    if (error.claim === "iss") return `it was issued by another issuer, not ${options.issuer}`;
    return `its "${error.claim}" claim is not valid (${error.reason})`;
  }
  if (error instanceof joseErrors.JWTExpired) return "it has expired";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey)
    return `its signature does not match ${options.issuer}'s keys`;
  if (error instanceof joseErrors.JOSEError) return `it is not a valid JWT (${error.code})`;
  return `its check failed (${error instanceof Error ? error.message : String(error)})`;
}

async function findJwksUri(options: OAuthResourceServerOptions, doFetch: typeof fetch): Promise<string> {
  if (options.jwksUri !== undefined) return options.jwksUri;
  const issuer = options.issuer.replace(/\/$/, "");
  for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
    const response = await doFetch(`${issuer}${path}`).catch(() => undefined);
    if (response?.ok !== true) continue;
    const body = (await response.json().catch(() => undefined)) as { jwks_uri?: unknown } | undefined;
    if (typeof body?.jwks_uri === "string") return body.jwks_uri;
  }
  throw new GatewayError(
    "GATEWAY_OPTIONS_INVALID",
    `Could not find the signing keys of ${issuer}: its metadata names no jwks_uri; give jwksUri in the OAuth options.`,
  );
}
