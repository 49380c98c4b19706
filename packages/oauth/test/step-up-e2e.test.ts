import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startOAuthProtectedServer, type OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { createStreamableHttpTransport } from "@mcp-tool-adapter/transport-http";
import { isStepUpAuthProvider } from "@mcp-tool-adapter/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryStore, login, NodeOAuthClientProvider, type CredentialStore } from "../src/index.js";

const HINT = "run `mcp-tool-adapter login protected`";
let server: OAuthProtectedServer;
let store: CredentialStore;
/** Authorization URLs "the user" was shown and followed. */
const browsed: URL[] = [];

function followInBrowser(url: URL): void {
  browsed.push(url);
  void server.browse(url);
}

beforeAll(async () => {
  // Connecting needs mcp:read; calling whoami needs mcp:write too.
  server = await startOAuthProtectedServer({ toolScopes: { whoami: ["mcp:read", "mcp:write"] } });
  store = createMemoryStore();
  await login(server.mcpUrl, { store, scope: "mcp:read", showAuthorizationUrl: followInBrowser });
});
afterAll(async () => {
  await server.stop();
});

async function callWhoami(provider: NodeOAuthClientProvider): Promise<{ scopes: string[] }> {
  const client = new Client({ name: "step-up-e2e", version: "1.0.0" });
  await client.connect(createStreamableHttpTransport({ url: server.mcpUrl }, { authProvider: provider }));
  try {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    const [first] = result.content as { type: string; text: string }[];
    return JSON.parse(first?.text ?? "{}") as { scopes: string[] };
  } finally {
    await client.close();
  }
}

describe("step-up on 403 insufficient_scope against oidc-provider", () => {
  it("without a human, the call fails with AUTH_REQUIRED naming the scopes, keeping the stored login", async () => {
    const provider = new NodeOAuthClientProvider(server.mcpUrl, { store, loginHint: HINT });
    const error = await callWhoami(provider).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toMatchObject({ code: "AUTH_REQUIRED" });
    expect((error as Error).message).toContain('"mcp:read mcp:write"');
    expect((error as Error).message).toContain(HINT);
    expect((await store.read(server.mcpUrl))?.tokens?.scope).toBe("mcp:read");
    expect(browsed).toHaveLength(1);
  });

  it("with a human, the provider logs in again for the granted plus required scopes and the call succeeds", async () => {
    const provider = new NodeOAuthClientProvider(server.mcpUrl, {
      store,
      loginHint: HINT,
      interactive: { showAuthorizationUrl: followInBrowser },
    });
    // transport-http finds the step-up methods through core's guard.
    expect(isStepUpAuthProvider(provider)).toBe(true);
    const who = await callWhoami(provider);
    expect(who.scopes).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
    expect(browsed).toHaveLength(2);
    expect(browsed[1]?.searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["mcp:read", "mcp:write"]),
    );
    expect((await store.read(server.mcpUrl))?.tokens?.scope?.split(" ")).toEqual(
      expect.arrayContaining(["mcp:read", "mcp:write"]),
    );
  });

  it("with a human and no stored login, the connection logs in first", async () => {
    const empty = createMemoryStore();
    const provider = new NodeOAuthClientProvider(server.mcpUrl, {
      store: empty,
      interactive: { showAuthorizationUrl: followInBrowser },
    });
    const who = await callWhoami(provider);
    expect(who.scopes).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
    expect((await empty.read(server.mcpUrl))?.tokens?.access_token).toEqual(expect.any(String));
  });
});
