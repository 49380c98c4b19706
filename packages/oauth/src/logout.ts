import { createFileStore } from "./file-store.js";
import type { CredentialStore } from "./store.js";

/**
 * Forgets the stored login for a server (tokens, registered client, discovery); true when there
 * was one. Tokens are not revoked at the authorization server: revoke them there to end the grant.
 */
export async function logout(serverUrl: string | URL, options: { store?: CredentialStore } = {}): Promise<boolean> {
  return (options.store ?? createFileStore()).delete(String(serverUrl));
}
