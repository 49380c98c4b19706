import { chmod, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startOAuthServerWithTempRoot, type OAuthServerWithTempRoot } from "@mcp-tool-adapter/test-helpers";
import type { BrowserOptions, OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { createStreamableHttpTransport } from "@mcp-tool-adapter/transport-http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  createFileStore,
  credentialsFileName,
  login,
  NodeOAuthClientProvider,
  type CredentialStore,
} from "../src/index.js";

let setup: OAuthServerWithTempRoot;
let server: OAuthProtectedServer;
let root: string;
let run = 0;

beforeAll(async () => {
  setup = await startOAuthServerWithTempRoot("oauth-hostile-");
  ({ server, root } = setup);
});
afterAll(() => setup.close());
afterEach(() => {
  delete server.hostile.metadata;
  delete server.hostile.resourceMetadata;
  delete server.hostile.tokenEndpoint;
});

/** A fresh store directory, logged in once when `loggedIn`. */
async function freshStore(loggedIn: boolean): Promise<{ store: CredentialStore; directory: string; file: string }> {
  run += 1;
  const directory = join(root, `store-${run}`);
  const store = createFileStore({ directory });
  if (loggedIn) await loginWith(store);
  return {
    store,
    directory,
    file: join(directory, credentialsFileName({ resource: server.mcpUrl, authorizationServer: server.issuer })),
  };
}

async function loginWith(store: CredentialStore, browser: BrowserOptions = {}): Promise<unknown> {
  let browsed: Promise<unknown> = Promise.resolve();
  return login(server.mcpUrl, {
    store,
    timeoutMs: 10_000,
    showAuthorizationUrl: (url) => {
      browsed = server.browse(url, browser);
    },
  }).finally(() => browsed);
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a failure");
}

async function snapshot(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").catch(() => undefined);
}

describe("hostile authorization servers and tampered stores", () => {
  it("refuses a token file other users can read, naming the chmod fix, and reads nothing from it", async () => {
    const { store, file, directory } = await freshStore(true);
    await chmod(file, 0o644);
    const error = await failure(store.read(server.mcpUrl));
    expect(error).toMatchObject({ code: "AUTH_STORE_INSECURE" });
    expect(error.message).toContain(`chmod 600 ${file}`);
    expect(error.message).not.toContain("access_token");

    const provider = new NodeOAuthClientProvider(server.mcpUrl, { store });
    const client = new Client({ name: "hostile", version: "1.0.0" });
    const connectFailure = await failure(
      client.connect(createStreamableHttpTransport({ url: server.mcpUrl }, { authProvider: provider })),
    );
    expect(connectFailure.message).toContain("chmod 600");

    await chmod(file, 0o600);
    await chmod(directory, 0o755);
    expect(await failure(store.read(server.mcpUrl))).toMatchObject({ code: "AUTH_STORE_INSECURE" });
  });

  it('with onLoosePermissions "warn", tightens the file to 0600 and says so', async () => {
    const { directory, file } = await freshStore(true);
    await chmod(file, 0o640);
    const warnings: string[] = [];
    const store = createFileStore({
      directory,
      onLoosePermissions: "warn",
      logger: { warn: (message) => warnings.push(message) },
    });
    expect((await store.read(server.mcpUrl))?.tokens).toBeDefined();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(warnings.join("\n")).toMatch(/mode 640; tightened to 600/);
  });

  it("a tampered state fails the login and stores nothing", async () => {
    const { store, file } = await freshStore(false);
    const error = await failure(
      loginWith(store, {
        tamperRedirect: (url) => {
          url.searchParams.set("state", "forged-by-an-attacker");
          return url;
        },
      }),
    );
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toMatch(/state does not match/);
    expect(await snapshot(file)).toBeUndefined();
  });

  it("an iss that is not the authorization server's fails the login (mix-up) and stores nothing", async () => {
    const { store, file } = await freshStore(false);
    const error = await failure(
      loginWith(store, {
        tamperRedirect: (url) => {
          url.searchParams.set("iss", "https://attacker.example");
          return url;
        },
      }),
    );
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toMatch(/issuer "https:\/\/attacker.example"/);
    expect(await snapshot(file)).toBeUndefined();
  });

  it("authorization server metadata naming another issuer stops the login before registration", async () => {
    const { store, file } = await freshStore(true);
    const before = await snapshot(file);
    server.hostile.metadata = (document) => ({ ...document, issuer: "https://attacker.example" });
    const error = await failure(loginWith(store));
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toMatch(/names issuer "https:\/\/attacker.example"/);
    expect(await snapshot(file)).toBe(before);
  });

  it("metadata sending the token endpoint to another host over plain http is refused", async () => {
    const { store, file } = await freshStore(false);
    server.hostile.metadata = (document) => ({ ...document, token_endpoint: "http://attacker.example/token" });
    const error = await failure(loginWith(store));
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toMatch(/token_endpoint.*not https/);
    expect(await snapshot(file)).toBeUndefined();
  });

  it("protected-resource metadata naming another host's resource is refused", async () => {
    const { store, file } = await freshStore(false);
    server.hostile.resourceMetadata = (document) => ({ ...document, resource: "https://attacker.example/mcp" });
    const error = await failure(loginWith(store));
    expect(error).toMatchObject({ code: "AUTH_FAILED" });
    expect(error.message).toContain("attacker.example");
    expect(await snapshot(file)).toBeUndefined();
  });

  it("a token endpoint answering garbage fails the login and the refresh, changing nothing stored", async () => {
    const { store, file } = await freshStore(true);
    const before = await snapshot(file);
    server.hostile.tokenEndpoint = "garbage";
    const loginError = await failure(loginWith(store));
    expect(loginError).toMatchObject({ code: "AUTH_FAILED" });
    expect(await snapshot(file)).toBe(before);

    server.expireSeenTokens();
    const provider = new NodeOAuthClientProvider(server.mcpUrl, { store, loginHint: "run `login`" });
    const client = new Client({ name: "hostile", version: "1.0.0" });
    // The token it holds may not have been seen by the server yet: one call makes it "seen", then it expires.
    const connect = client
      .connect(createStreamableHttpTransport({ url: server.mcpUrl }, { authProvider: provider }))
      .then(async () => {
        server.expireSeenTokens();
        await client.listTools();
      });
    const refreshError = await failure(connect.finally(() => client.close()));
    expect(refreshError).toMatchObject({ code: "AUTH_FAILED" });
    expect(refreshError.message).toContain("run `login`");
    expect(await snapshot(file)).toBe(before);
  });
});
