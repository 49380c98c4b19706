import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * What is kept for one MCP server (its resource URL) and the authorization server that guards it.
 * The SDK stamps `clientInformation` and `tokens` with the authorization server's URL (`issuer`),
 * and never presents them to another one.
 */
export interface StoredCredentials {
  /** The MCP server's URL, as given to the provider: the key. */
  readonly resource: string;
  /** The authorization server the credentials belong to, once discovered. */
  readonly authorizationServer?: string;
  readonly discovery?: OAuthDiscoveryState;
  readonly clientInformation?: OAuthClientInformationMixed;
  readonly tokens?: OAuthTokens;
  /** When `tokens` were received (epoch ms): with `tokens.expires_in`, their expiry. */
  readonly tokensReceivedAt?: number;
}

/**
 * Where credentials live between runs. Implementations must keep them from other users; the file
 * store does (mode 0600, refuses looser files). A keychain or a secrets manager fits the same shape.
 */
export interface CredentialStore {
  /** The credentials for `resource`, or undefined when none are stored. */
  read(resource: string): Promise<StoredCredentials | undefined>;
  /** Replaces what is stored for `credentials.resource`, atomically. */
  write(credentials: StoredCredentials): Promise<void>;
  /** Forgets `resource`; true when something was stored. */
  delete(resource: string): Promise<boolean>;
  /** Everything stored, for status listings. */
  list(): Promise<StoredCredentials[]>;
}

/** The expiry of stored tokens (epoch ms), or undefined when the authorization server gave none. */
export function tokensExpireAt(credentials: StoredCredentials): number | undefined {
  const seconds = credentials.tokens?.expires_in;
  if (seconds === undefined || credentials.tokensReceivedAt === undefined) return undefined;
  return credentials.tokensReceivedAt + seconds * 1000;
}

/** A store in memory, for tests and for processes that must not write to disk. */
export function createMemoryStore(): CredentialStore {
  const entries = new Map<string, StoredCredentials>();
  return {
    read: (resource) => Promise.resolve(entries.get(resource)),
    write: (credentials) => {
      entries.set(credentials.resource, structuredClone(credentials));
      return Promise.resolve();
    },
    delete: (resource) => Promise.resolve(entries.delete(resource)),
    list: () => Promise.resolve([...entries.values()]),
  };
}
