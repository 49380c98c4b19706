import type { Logger } from "@mcp-tool-adapter/core";
import {
  NodeOAuthClientProvider,
  type CredentialStore,
  type InteractiveOptions,
  type NodeOAuthProviderOptions,
} from "@mcp-tool-adapter/oauth";

/**
 * How a server entry authorizes. `oauth`: a user logs in once (`mcp-tool-adapter login <server>`
 * or `login()`), then tokens are refreshed on their own. `client_credentials`: a machine's own
 * credentials, no browser. (A static bearer token is a header: `headers.Authorization`, which
 * config files can also spell `auth: { type: "bearer", token }`.)
 */
export type ServerAuth =
  | {
      type: "oauth";
      /** A pre-registered client id (else a client ID metadata document or dynamic registration). */
      clientId?: string;
      clientSecret?: string;
      /** Scopes to ask for when the server names none. */
      scopes?: string[];
      /** The server's protected-resource metadata URL, when its 401 does not say. */
      metadataUrl?: string;
      /** An https URL of this client's metadata document, used as its client id where supported. */
      clientMetadataUrl?: string;
      /** The issuer the client's secret may be sent to. */
      authorizationServer?: string;
    }
  | {
      type: "client_credentials";
      clientId: string;
      clientSecret?: string;
      /** PKCS#8 PEM or JWK (as JSON text) for private_key_jwt. */
      privateKey?: string;
      algorithm?: string;
      /** The issuer the credentials may be sent to (required). */
      authorizationServer: string;
      scopes?: string[];
    };

/** What the host adds to an entry's `auth`. */
export interface ServerAuthExtras {
  store?: CredentialStore;
  loginHint?: string;
  interactive?: InteractiveOptions;
  /** The entry has no `auth`: only a stored login is used (see NodeOAuthProviderOptions). */
  onlyWithStoredLogin?: boolean;
  logger?: Logger;
}

/** The provider options an entry's `auth` stands for. */
export function authProviderOptions(auth: ServerAuth, extra: ServerAuthExtras): NodeOAuthProviderOptions {
  const common: NodeOAuthProviderOptions = {
    ...(extra.logger === undefined ? {} : { logger: extra.logger }),
    ...(extra.onlyWithStoredLogin === undefined ? {} : { onlyWithStoredLogin: extra.onlyWithStoredLogin }),
    ...(extra.store === undefined ? {} : { store: extra.store }),
    ...(extra.loginHint === undefined ? {} : { loginHint: extra.loginHint }),
    ...(auth.scopes === undefined ? {} : { scopes: auth.scopes }),
    ...(auth.authorizationServer === undefined ? {} : { authorizationServer: auth.authorizationServer }),
  };
  if (auth.type === "client_credentials") {
    const privateKey = auth.privateKey?.trim().startsWith("{")
      ? (JSON.parse(auth.privateKey) as Record<string, unknown>)
      : auth.privateKey;
    return {
      ...common,
      clientCredentials: {
        clientId: auth.clientId,
        ...(auth.clientSecret === undefined ? {} : { clientSecret: auth.clientSecret }),
        ...(privateKey === undefined ? {} : { privateKey }),
        ...(auth.algorithm === undefined ? {} : { algorithm: auth.algorithm }),
      },
    };
  }
  return {
    ...common,
    ...(auth.clientId === undefined
      ? {}
      : {
          client: {
            clientId: auth.clientId,
            ...(auth.clientSecret === undefined ? {} : { clientSecret: auth.clientSecret }),
          },
        }),
    ...(extra.interactive === undefined ? {} : { interactive: extra.interactive }),
    ...(auth.metadataUrl === undefined ? {} : { resourceMetadataUrl: auth.metadataUrl }),
    ...(auth.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: auth.clientMetadataUrl }),
  };
}

/** The provider a connection to `url` uses for an entry's `auth`. */
export function createServerAuthProvider(
  url: string,
  auth: ServerAuth,
  extra: ServerAuthExtras,
): NodeOAuthClientProvider {
  return new NodeOAuthClientProvider(url, authProviderOptions(auth, extra));
}

// Here too for the commands that load this module anyway; its home is light, for the CLI's stdio path.
export { cliLoginHint } from "./login-hint.js";
