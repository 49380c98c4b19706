import { createFileStore } from "./file-store.js";
import type { CredentialStore } from "./store.js";

export interface LogoutOptions {
  store?: CredentialStore;
  /** Forget only the login at this authorization server; default: the server's logins at every one. */
  authorizationServer?: string;
}

/**
 * Forgets the stored login for a server (tokens, registered client, discovery); true when there
 * was one. Config entries that name the same server URL share that login, so they are logged out
 * too. Tokens are not revoked at the authorization server: revoke them there to end the grant.
 */
export async function logout(serverUrl: string | URL, options: LogoutOptions = {}): Promise<boolean> {
  return (options.store ?? createFileStore()).delete(String(serverUrl), options.authorizationServer);
}
