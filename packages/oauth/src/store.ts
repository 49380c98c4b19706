import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * What is kept for one MCP server (its resource URL) at one authorization server: the key is the
 * pair. Two config entries for the same resource behind the same authorization server share one
 * login; the same authorization server guarding two resources keeps two. The registered client is
 * kept with its tokens, not shared per authorization server: a refresh token is bound to the client
 * it was issued to (RFC 6749 §6), so replacing a shared registration (new scopes, a deleted client)
 * would strand every other resource's login.
 */
export interface StoredCredentials {
  /** The MCP server's URL, as given to the provider: half of the key. */
  readonly resource: string;
  /** The authorization server (its URL, as discovery found it): the other half, once known. */
  readonly authorizationServer?: string;
  readonly discovery?: OAuthDiscoveryState;
  readonly clientInformation?: OAuthClientInformationMixed;
  readonly tokens?: OAuthTokens;
  /** When `tokens` were received (epoch ms): with `tokens.expires_in`, their expiry. */
  readonly tokensReceivedAt?: number;
}

/**
 * Where credentials live between runs, keyed by (authorization server, resource). Implementations
 * must keep them from other users; the file store does (mode 0600, refuses looser files). A keychain
 * or a secrets manager fits the same shape.
 */
export interface CredentialStore {
  /**
   * The credentials for `resource` at `authorizationServer`. Without `authorizationServer` (not
   * discovered yet), the most recently written record for `resource` at any authorization server.
   */
  read(resource: string, authorizationServer?: string): Promise<StoredCredentials | undefined>;
  /** Replaces what is stored for (`credentials.authorizationServer`, `credentials.resource`), atomically. */
  write(credentials: StoredCredentials): Promise<void>;
  /** Forgets `resource` at `authorizationServer`, or at every one without it; true when something was stored. */
  delete(resource: string, authorizationServer?: string): Promise<boolean>;
  /** Everything stored, for status listings. */
  list(): Promise<StoredCredentials[]>;
}

/**
 * The form of a resource or authorization server URL that keys the store: parsed and printed again
 * (`https://Host:443/mcp#x` and `https://host/mcp` are one resource; a fragment is never part of
 * an RFC 8707 resource). Text that is not a URL is its own key.
 */
export function canonicalCredentialUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    return parsed.href;
  } catch {
    return url;
  }
}

/** True when two authorization server URLs name the same server (see {@link canonicalCredentialUrl}). */
export function sameAuthorizationServer(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalCredentialUrl(a) === canonicalCredentialUrl(b);
}

/** The expiry of stored tokens (epoch ms), or undefined when the authorization server gave none. */
export function tokensExpireAt(credentials: StoredCredentials): number | undefined {
  const seconds = credentials.tokens?.expires_in;
  if (seconds === undefined || credentials.tokensReceivedAt === undefined) return undefined;
  return credentials.tokensReceivedAt + seconds * 1000;
}

/** A store in memory, for tests and for processes that must not write to disk. */
export function createMemoryStore(): CredentialStore {
  // Insertion order is write order (a write deletes first): the last match is the newest.
  const entries = new Map<string, StoredCredentials>();
  const keyOf = (resource: string, authorizationServer: string | undefined): string =>
    JSON.stringify([
      canonicalCredentialUrl(resource),
      authorizationServer === undefined ? null : canonicalCredentialUrl(authorizationServer),
    ]);
  const forResource = (resource: string): [string, StoredCredentials][] =>
    [...entries].filter(([, stored]) => canonicalCredentialUrl(stored.resource) === canonicalCredentialUrl(resource));
  return {
    read: (resource, authorizationServer) => {
      if (authorizationServer !== undefined) {
        const found = entries.get(keyOf(resource, authorizationServer));
        return Promise.resolve(found === undefined ? undefined : structuredClone(found));
      }
      const newest = forResource(resource).at(-1)?.[1];
      return Promise.resolve(newest === undefined ? undefined : structuredClone(newest));
    },
    write: (credentials) => {
      const key = keyOf(credentials.resource, credentials.authorizationServer);
      entries.delete(key);
      entries.set(key, structuredClone(credentials));
      return Promise.resolve();
    },
    delete: (resource, authorizationServer) => {
      if (authorizationServer !== undefined)
        return Promise.resolve(entries.delete(keyOf(resource, authorizationServer)));
      const matching = forResource(resource);
      for (const [key] of matching) entries.delete(key);
      return Promise.resolve(matching.length > 0);
    },
    list: () => Promise.resolve([...entries.values()].map((stored) => structuredClone(stored))),
  };
}
