import { discoverOAuthServerInfo } from "@modelcontextprotocol/sdk/client/auth.js";
import {
  createMemoryStore,
  login,
  NodeOAuthClientProvider,
  type NodeOAuthProviderOptions,
} from "mcp-tool-adapter/oauth";
import { withAdapter } from "./adapter-session.js";
import type { ScenarioClient } from "./types.js";

/** What the suite hands an auth scenario's client (pre-registered or machine credentials). */
interface AuthContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  /** Cross-app access: the enterprise identity provider and the user's ID token from it. */
  idp_token_endpoint?: string;
  idp_id_token?: string;
  idp_client_id?: string;
}

/** The URL the suite's authorization servers accept as a client ID metadata document. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * Every auth scenario as a user of our public API plays it: a login (the suite's authorization
 * server approves at once, so "the browser" only follows its redirect to our loopback listener),
 * or machine credentials; then a connection on the stored tokens that lists and calls tools, so
 * refreshes and step-ups happen the way they do in use.
 */
export const oauthScenario: ScenarioClient = async (serverUrl) => {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as AuthContext;
  const store = createMemoryStore();
  const options: NodeOAuthProviderOptions = { store, clientMetadataUrl: CLIENT_METADATA_URL };
  if (context.idp_token_endpoint !== undefined) {
    // The operator configures the authorization server's issuer; here it is looked up once.
    const { authorizationServerUrl } = await discoverOAuthServerInfo(serverUrl);
    options.authorizationServer = authorizationServerUrl;
    options.crossAppAccess = {
      clientId: context.client_id ?? "",
      clientSecret: context.client_secret ?? "",
      idpTokenEndpoint: context.idp_token_endpoint,
      idToken: context.idp_id_token ?? "",
      ...(context.idp_client_id === undefined ? {} : { idpClientId: context.idp_client_id }),
    };
  } else if (context.private_key_pem !== undefined || (context.client_secret !== undefined && isMachineScenario())) {
    // A machine's operator configures the authorization server's issuer; here it is looked up once.
    const { authorizationServerUrl } = await discoverOAuthServerInfo(serverUrl);
    options.authorizationServer = authorizationServerUrl;
    options.clientCredentials = {
      clientId: context.client_id ?? "",
      ...(context.private_key_pem === undefined
        ? { clientSecret: context.client_secret ?? "" }
        : { privateKey: context.private_key_pem, algorithm: context.signing_algorithm ?? "ES256" }),
    };
  } else {
    if (context.client_id !== undefined) {
      options.client = {
        clientId: context.client_id,
        ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
      };
    }
    await login(serverUrl, { ...options, showAuthorizationUrl: followRedirect, timeoutMs: 20_000 });
    // A human is at this client: a step-up (403 insufficient_scope) logs in again for more scopes.
    options.interactive = { showAuthorizationUrl: followRedirect, timeoutMs: 20_000 };
  }
  const authProvider = new NodeOAuthClientProvider(serverUrl, options);
  // The revision the suite asks for: engine-2026 at 2026-07-28 takes the same provider.
  await withAdapter(serverUrl, { transportOptions: { http: { authProvider } } }, async (adapter) => {
    for (const tool of adapter.discoveredTools) await adapter.invoke(tool.name, {});
  });
};

function isMachineScenario(): boolean {
  return (process.env.MCP_CONFORMANCE_SCENARIO ?? "").startsWith("auth/client-credentials");
}

/** The user's browser against an authorization server that approves at once: follow its redirect. */
async function followRedirect(url: URL): Promise<void> {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  // An unread body would hold its socket, and with it this process, open.
  await response.body?.cancel();
  if (location === null) throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
  // Not awaited by the login: the loopback listener answers this request once it checks it.
  void fetch(new URL(location, url))
    .then((answer) => answer.text())
    .catch(() => undefined);
}
