import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startOAuthProtectedServer, type OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { createStreamableHttpTransport } from "@mcp-tool-adapter/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFileStore,
  credentialsFileName,
  login,
  logout,
  NodeOAuthClientProvider,
  type CredentialStore,
} from "../src/index.js";

let server: OAuthProtectedServer;
let directory: string;
let store: CredentialStore;

beforeAll(async () => {
  server = await startOAuthProtectedServer();
  directory = await mkdtemp(join(tmpdir(), "oauth-e2e-"));
  store = createFileStore({ directory });
});
afterAll(async () => {
  await server.stop();
  await rm(directory, { recursive: true, force: true });
});

/** A login where the test is the user: it follows the printed URL in its own "browser". */
async function loginAsUser(options: Parameters<typeof login>[1] = {}): Promise<Awaited<ReturnType<typeof login>>> {
  let browsed: Promise<{ status: number; body: string }> | undefined;
  const result = await login(server.mcpUrl, {
    store,
    loginHint: "run `mcp-tool-adapter login protected`",
    showAuthorizationUrl: (url) => {
      browsed = server.browse(url);
    },
    ...options,
  });
  expect((await browsed)?.status).toBe(200);
  return result;
}

async function callWhoami(provider: NodeOAuthClientProvider): Promise<{ subject: string; scopes: string[] }> {
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  await client.connect(createStreamableHttpTransport({ url: server.mcpUrl }, { authProvider: provider }));
  try {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    const [first] = result.content as { type: string; text: string }[];
    return JSON.parse(first?.text ?? "{}") as { subject: string; scopes: string[] };
  } finally {
    await client.close();
  }
}

async function connectError(provider: NodeOAuthClientProvider): Promise<unknown> {
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
  try {
    await client.connect(createStreamableHttpTransport({ url: server.mcpUrl }, { authProvider: provider }));
    await client.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

function connectionProvider(): NodeOAuthClientProvider {
  return new NodeOAuthClientProvider(server.mcpUrl, { store, loginHint: "run `mcp-tool-adapter login protected`" });
}

describe("OAuth login against oidc-provider guarding an SDK bearer-auth MCP server", () => {
  it("before any login, a connection fails with AUTH_REQUIRED and the login hint, registering nothing", async () => {
    const error = await connectError(connectionProvider());
    expect(error).toMatchObject({ code: "AUTH_REQUIRED" });
    expect((error as Error).message).toContain("run `mcp-tool-adapter login protected`");
    expect(await store.read(server.mcpUrl)).toBeUndefined();
  });

  it("logs in through the browser, stores the tokens 0600, and a call succeeds with them", async () => {
    const result = await loginAsUser();
    expect(result.authorizationServer?.replace(/\/$/, "")).toBe(server.issuer);
    expect(result.expiresAt).toBeGreaterThan(Date.now());

    const file = join(directory, credentialsFileName({ resource: server.mcpUrl, authorizationServer: server.issuer }));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(directory)).mode & 0o777).toBe(0o700);
    const stored = await store.read(server.mcpUrl);
    expect(stored?.tokens?.access_token).toEqual(expect.any(String));
    expect(stored?.tokens?.refresh_token).toEqual(expect.any(String));

    const who = await callWhoami(connectionProvider());
    expect(who.subject).toBe("alice");
    // The scope the server's 401 asks for (its WWW-Authenticate), before its scopes_supported.
    expect(who.scopes).toEqual(["mcp:read"]);
  });

  it("an expired access token is refreshed without the user, and the new one is stored", async () => {
    const before = await store.read(server.mcpUrl);
    server.expireSeenTokens();
    const who = await callWhoami(connectionProvider());
    expect(who.subject).toBe("alice");
    const after = await store.read(server.mcpUrl);
    expect(after?.tokens?.access_token).not.toBe(before?.tokens?.access_token);
  });

  it("a second process reuses the stored token without a login", async () => {
    const { execFile } = await import("node:child_process");
    const script = join(import.meta.dirname, "fixtures", "call-whoami.ts");
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "--conditions=@mcp-tool-adapter/source", script, server.mcpUrl, directory],
        { cwd: join(import.meta.dirname, ".."), timeout: 30_000 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
      );
    });
    expect(JSON.parse(output)).toMatchObject({ subject: "alice" });
  });

  it("a revoked grant gives AUTH_FAILED with the login hint, and the dead tokens are forgotten", async () => {
    await server.revokeAllGrants();
    server.expireSeenTokens();
    const error = await connectError(connectionProvider());
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect((error as Error).message).toMatch(/rejected.*run `mcp-tool-adapter login protected`/s);
    expect((await store.read(server.mcpUrl))?.tokens).toBeUndefined();
    const text = JSON.stringify({ message: (error as Error).message, stack: (error as Error).stack });
    expect(text).not.toMatch(/Bearer [A-Za-z0-9_-]{20,}/);
  });

  it("logs in again after the revocation, then logout forgets the server", async () => {
    await loginAsUser();
    expect((await callWhoami(connectionProvider())).subject).toBe("alice");
    expect(await logout(server.mcpUrl, { store })).toBe(true);
    expect(await store.read(server.mcpUrl)).toBeUndefined();
    await expect(
      readFile(join(directory, credentialsFileName({ resource: server.mcpUrl, authorizationServer: server.issuer }))),
    ).rejects.toThrow();
  });

  it("client_credentials with a secret gets a token for a machine, no browser", async () => {
    const { OAUTH_MACHINE_CLIENT } = await import("@mcp-tool-adapter/test-servers");
    const machine = new NodeOAuthClientProvider(server.mcpUrl, {
      store: createFileStore({ directory: join(directory, "machine") }),
      authorizationServer: server.issuer,
      clientCredentials: { clientId: OAUTH_MACHINE_CLIENT.clientId, clientSecret: OAUTH_MACHINE_CLIENT.clientSecret },
    });
    const who = await callWhoami(machine);
    expect(who.subject).toBe(OAUTH_MACHINE_CLIENT.clientId);
  });
});
