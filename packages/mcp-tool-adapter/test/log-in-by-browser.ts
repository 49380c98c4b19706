import type { OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { login, type CredentialStore } from "../src/oauth-entry.js";

/**
 * `login()` against the test server, with its authorization page opened the way a user's browser
 * would (the server's own consent runs): the tokens land in `store`. Fails when that page did not
 * answer 200, so a test never goes on without the login it needs.
 */
export async function logInByBrowser(server: OAuthProtectedServer, store: CredentialStore): Promise<void> {
  let browsed: Promise<{ status: number }> | undefined;
  await login(server.mcpUrl, {
    store,
    showAuthorizationUrl: (url) => {
      browsed = server.browse(url);
    },
  });
  const page = await browsed;
  if (page?.status !== 200) {
    throw new Error(`the authorization page answered ${page === undefined ? "nothing" : String(page.status)}, not 200`);
  }
}
