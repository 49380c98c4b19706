import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  startFaultHttpServer,
  startOAuthProtectedServer,
  type FaultHttpServer,
  type OAuthProtectedServer,
} from "@mcp-tool-adapter/test-servers";
import { createStreamableHttpTransport } from "@mcp-tool-adapter/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryStore, NodeOAuthClientProvider, type CrossAppAccessOptions } from "../src/index.js";

// The passing flow is proven by the conformance suite (auth/cross-app-access-complete-flow); here,
// an identity provider that does not give an identity assertion grant.
const ID_TOKEN = "eyJ.id-token-of-the-user.sig";
let server: OAuthProtectedServer;
let idp: FaultHttpServer;

beforeAll(async () => {
  [server, idp] = await Promise.all([startOAuthProtectedServer(), startFaultHttpServer()]);
});
afterAll(async () => {
  await Promise.all([server.stop(), idp.close()]);
});

function crossApp(): CrossAppAccessOptions {
  return {
    clientId: "enterprise-client",
    clientSecret: "enterprise-secret-42",
    idpTokenEndpoint: idp.url,
    idToken: ID_TOKEN,
  };
}

async function connectFailure(provider: NodeOAuthClientProvider): Promise<Error & { code?: string }> {
  const client = new Client({ name: "cross-app", version: "1.0.0" });
  try {
    await client.connect(createStreamableHttpTransport({ url: server.mcpUrl }, { authProvider: provider }));
  } catch (error) {
    return error as Error & { code?: string };
  }
  await client.close();
  throw new Error("expected the connection to fail");
}

describe("cross-app access with an identity provider that refuses", () => {
  it("an exchange the identity provider refuses fails with AUTH_FAILED, storing nothing and quoting no credential", async () => {
    idp.setBehavior({ kind: "status", status: 400, body: { error: "invalid_grant" } });
    const store = createMemoryStore();
    const provider = new NodeOAuthClientProvider(server.mcpUrl, {
      store,
      authorizationServer: server.issuer,
      crossAppAccess: crossApp(),
    });
    const error = await connectFailure(provider);
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toContain("invalid_grant");
    expect(error.message).not.toContain(ID_TOKEN);
    expect(error.message).not.toContain("enterprise-secret-42");
    const exchange = new URLSearchParams(idp.requests.at(-1)?.body ?? "");
    expect(exchange.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:token-exchange");
    expect(exchange.get("requested_token_type")).toBe("urn:ietf:params:oauth:token-type:id-jag");
    expect(exchange.get("resource")).toBe(server.mcpUrl);
    expect((await store.read(server.mcpUrl))?.tokens).toBeUndefined();
  });

  it("a token that is not an identity assertion grant is refused", async () => {
    idp.setBehavior({
      kind: "status",
      status: 200,
      body: {
        access_token: "opaque",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
      },
    });
    const provider = new NodeOAuthClientProvider(server.mcpUrl, {
      store: createMemoryStore(),
      authorizationServer: server.issuer,
      crossAppAccess: crossApp(),
    });
    expect(await connectFailure(provider)).toMatchObject({ code: "AUTH_FAILED" });
  });

  it("the exchange goes through the injected fetch, and one that cannot reach the identity provider names it", async () => {
    idp.setBehavior({ kind: "status", status: 400, body: { error: "invalid_grant" } });
    const seen: string[] = [];
    const recording = new NodeOAuthClientProvider(server.mcpUrl, {
      store: createMemoryStore(),
      authorizationServer: server.issuer,
      crossAppAccess: crossApp(),
      fetch: (url, init) => {
        seen.push(String(url));
        return fetch(url, init);
      },
    });
    const before = idp.requests.length;
    expect(await connectFailure(recording)).toMatchObject({ code: "AUTH_FAILED" });
    expect(seen).toEqual([idp.url]);
    expect(idp.requests.length).toBe(before + 1);

    const unreachable = new NodeOAuthClientProvider(server.mcpUrl, {
      store: createMemoryStore(),
      authorizationServer: server.issuer,
      crossAppAccess: crossApp(),
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    const error = await connectFailure(unreachable);
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toContain(`${idp.url} could not be reached`);
    expect(idp.requests.length).toBe(before + 1);
  });

  it("needs the authorization server the secret may go to, and a secure identity provider endpoint", () => {
    expect(() => new NodeOAuthClientProvider(server.mcpUrl, { crossAppAccess: crossApp() })).toThrow(
      expect.objectContaining({ code: "AUTH_CONFIG_INVALID" }),
    );
    expect(
      () =>
        new NodeOAuthClientProvider(server.mcpUrl, {
          authorizationServer: server.issuer,
          crossAppAccess: { ...crossApp(), idpTokenEndpoint: "http://idp.example.com/token" },
        }),
    ).toThrow(expect.objectContaining({ code: "AUTH_CONFIG_INVALID" }));
  });
});
