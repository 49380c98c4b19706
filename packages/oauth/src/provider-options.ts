import type { Logger } from "@mcp-tool-adapter/core";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CredentialStore } from "./store.js";

/** A client the authorization server already knows (registered by hand), instead of dynamic registration. */
export interface PreRegisteredClient {
  clientId: string;
  /** For confidential clients; sent with client_secret_basic. */
  clientSecret?: string;
}

/** Machine-to-machine: the client_credentials grant, with a secret or a private-key JWT (RFC 7523). */
export interface ClientCredentialsOptions {
  clientId: string;
  clientSecret?: string;
  /** A PKCS#8 PEM (RS*, ES*, PS*), a JWK, or an HS* shared secret; instead of `clientSecret`. */
  privateKey?: string | Record<string, unknown>;
  /** The JWT's algorithm, e.g. "RS256" or "ES256". Required with `privateKey`. */
  algorithm?: string;
}

/**
 * Enterprise-managed authorization (cross-app access, SEP-990): the user's ID token from the
 * enterprise identity provider is exchanged there for an identity assertion grant (ID-JAG,
 * RFC 8693 token exchange), which the MCP server's authorization server takes as a JWT bearer
 * grant (RFC 7523) from this client (client_secret_basic). No browser, no refresh token.
 */
export interface CrossAppAccessOptions {
  /** This client at the MCP server's authorization server. */
  clientId: string;
  clientSecret: string;
  /** The identity provider's token endpoint (https, or loopback http). */
  idpTokenEndpoint: string;
  /** The user's ID token from the identity provider (or how to get a current one). */
  idToken: string | (() => string | Promise<string>);
  /** This client at the identity provider, sent with the token exchange when given. */
  idpClientId?: string;
}

export interface NodeOAuthProviderOptions {
  /** Where credentials are kept between runs. Default: the file store in the user's config directory. */
  store?: CredentialStore;
  /** Use this client instead of registering one (for servers without dynamic client registration). */
  client?: PreRegisteredClient;
  /**
   * An https URL whose document describes this client (a client ID metadata document); used as
   * the client id where the authorization server supports them, else dynamic registration.
   */
  clientMetadataUrl?: string;
  /** Machine credentials: no browser, no refresh token; a fresh token whenever the old one is rejected. */
  clientCredentials?: ClientCredentialsOptions;
  /** Cross-app access through the enterprise identity provider; needs `authorizationServer`. */
  crossAppAccess?: CrossAppAccessOptions;
  /**
   * The authorization server credentials may be presented to (its issuer URL). Required with
   * `clientCredentials` and recommended with `client`: without it, the MCP server chooses where
   * the client's secret goes.
   */
  authorizationServer?: string;
  /**
   * The server's protected-resource metadata URL, for servers whose 401 does not name it and that
   * do not serve it at the well-known path.
   */
  resourceMetadataUrl?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: readonly string[];
  /** Shown on the consent screen. Default "mcp-tool-adapter". */
  clientName?: string;
  /**
   * What an AUTH_REQUIRED / AUTH_FAILED message tells the user to do, e.g. "run `mcp-tool-adapter login github`".
   * Default: "call login() from @mcp-tool-adapter/oauth for this server".
   */
  loginHint?: string;
  /**
   * A human is there: when the server needs a login (none stored, a refresh that fails, or a
   * `403 insufficient_scope`), the connection runs {@link login} itself, asking for the scopes
   * already granted plus the ones the server names, instead of failing with `AUTH_REQUIRED`.
   * Leave it out for anything unattended.
   */
  interactive?: InteractiveOptions;
  /**
   * For servers whose config did not ask for OAuth: until a login is stored for this server, the
   * provider stays out of the way. It sends no token and, when the server answers 401, fails at
   * once with `AUTH_REQUIRED` and the login hint, before any discovery request. A store it cannot
   * read is reported only then (a server that needs no login keeps working). Once a login is
   * stored, it serves and refreshes it like any provider.
   */
  onlyWithStoredLogin?: boolean;
  /**
   * Every OAuth request of a {@link login}, and the identity provider's token exchange of
   * `crossAppAccess`. Default: the global `fetch`. (A connection's own requests use its transport's.)
   */
  fetch?: FetchLike;
  /** Wall-clock milliseconds, for token expiry. Default `Date.now`. */
  now?: () => number;
  logger?: Logger;
}

/** How an interactive provider shows its login (the same knobs as {@link login}). */
export interface InteractiveOptions {
  /** Default: print the URL on stderr and open the system browser where there is one. */
  showAuthorizationUrl?: (url: URL) => void | Promise<void>;
  /** How long to wait for the browser. Default 300 000 ms. */
  timeoutMs?: number;
}
