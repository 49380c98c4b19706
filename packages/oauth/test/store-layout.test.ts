import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startOAuthServerWithTempRoot, type OAuthServerWithTempRoot } from "@mcp-tool-adapter/test-helpers";
import type { OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { createStreamableHttpTransport } from "@mcp-tool-adapter/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFileStore,
  createMemoryStore,
  credentialsFileName,
  login,
  logout,
  NodeOAuthClientProvider,
  type CredentialStore,
  type StoredCredentials,
} from "../src/index.js";

let setup: OAuthServerWithTempRoot;
let server: OAuthProtectedServer;
let root: string;
let run = 0;

beforeAll(async () => {
  setup = await startOAuthServerWithTempRoot("oauth-layout-");
  ({ server, root } = setup);
});
afterAll(() => setup.close());

async function freshDirectory(): Promise<string> {
  run += 1;
  const directory = join(root, `store-${run}`);
  await mkdir(directory, { mode: 0o700 });
  return directory;
}

async function loginTo(resource: string, store: CredentialStore): Promise<void> {
  let browsed: Promise<unknown> = Promise.resolve();
  await login(resource, {
    store,
    timeoutMs: 10_000,
    showAuthorizationUrl: (url) => {
      browsed = server.browse(url);
    },
  }).finally(() => browsed);
}

async function connectFailure(resource: string, store: CredentialStore): Promise<Error & { code?: string }> {
  const client = new Client({ name: "layout", version: "1.0.0" });
  const provider = new NodeOAuthClientProvider(resource, { store, loginHint: "run the login" });
  try {
    await client.connect(createStreamableHttpTransport({ url: resource }, { authProvider: provider }));
  } catch (error) {
    return error as Error & { code?: string };
  }
  await client.close();
  throw new Error("expected the connection to fail");
}

async function whoami(resource: string, store: CredentialStore): Promise<string> {
  const client = new Client({ name: "layout", version: "1.0.0" });
  const provider = new NodeOAuthClientProvider(resource, { store });
  await client.connect(createStreamableHttpTransport({ url: resource }, { authProvider: provider }));
  try {
    const result = await client.callTool({ name: "whoami", arguments: {} });
    return (result.content as { text: string }[])[0]?.text ?? "";
  } finally {
    await client.close();
  }
}

/** The name the per-resource layout gave a server's file (host, then a hash of the URL as given). */
function legacyName(resource: string): string {
  return `${new URL(resource).host.replace(/[^a-zA-Z0-9.-]/g, "_")}-${createHash("sha256").update(resource).digest("hex").slice(0, 16)}.json`;
}

function record(resource: string, authorizationServer: string | undefined, accessToken: string): StoredCredentials {
  return {
    resource,
    ...(authorizationServer === undefined ? {} : { authorizationServer }),
    tokens: { access_token: accessToken, token_type: "Bearer" },
    tokensReceivedAt: 1,
  };
}

describe("the store is keyed by authorization server and resource", () => {
  it("names a file by resource host and authorization server host, each with a hash", () => {
    const name = credentialsFileName({
      resource: "https://mcp.example.com/mcp",
      authorizationServer: "https://auth.example.com/",
    });
    expect(name).toMatch(/^mcp\.example\.com-[0-9a-f]{16}@auth\.example\.com-[0-9a-f]{12}\.json$/);
    // One resource, two spellings of one authorization server: one file.
    expect(
      credentialsFileName({
        resource: "https://MCP.example.com:443/mcp#x",
        authorizationServer: "https://auth.example.com",
      }),
    ).toBe(name);
    expect(
      credentialsFileName({
        resource: "https://mcp.example.com/other",
        authorizationServer: "https://auth.example.com",
      }),
    ).not.toBe(name);
    expect(
      credentialsFileName({
        resource: "https://mcp.example.com/mcp",
        authorizationServer: "https://evil.example/../x",
      }),
    ).toMatch(/^[\w.@-]+\.json$/);
  });

  it("one authorization server guarding two resources keeps two logins; two entries for one resource share one", async () => {
    const directory = await freshDirectory();
    const store = createFileStore({ directory });
    const other = `${server.mcpUrl}?tenant=b`;
    await loginTo(server.mcpUrl, store);

    const files = await readdir(directory);
    expect(files).toEqual([credentialsFileName({ resource: server.mcpUrl, authorizationServer: server.issuer })]);
    expect((await lstat(join(directory, files[0] ?? ""))).mode & 0o777).toBe(0o600);
    // A second entry with the same URL (another provider, another process) uses that login.
    const caller = JSON.parse(await whoami(server.mcpUrl, createFileStore({ directory }))) as { subject?: unknown };
    expect(typeof caller.subject).toBe("string");
    // The other resource at the same authorization server has no login of its own yet.
    expect(await connectFailure(other, store)).toMatchObject({ code: "AUTH_REQUIRED" });

    await loginTo(other, store);
    const first = await store.read(server.mcpUrl, server.issuer);
    const second = await store.read(other, server.issuer);
    expect(second?.tokens?.access_token).toBeDefined();
    expect(second?.tokens?.access_token).not.toBe(first?.tokens?.access_token);
    expect((await readdir(directory)).sort()).toHaveLength(2);

    expect(await logout(other, { store })).toBe(true);
    expect(await store.read(other)).toBeUndefined();
    expect((await store.read(server.mcpUrl))?.tokens?.access_token).toBe(first?.tokens?.access_token);
  });

  it("a login stored for another authorization server is neither used at the new one nor overwritten", async () => {
    const directory = await freshDirectory();
    const store = createFileStore({ directory });
    const elsewhere = "https://old-auth.example.com";
    await store.write(record(server.mcpUrl, elsewhere, "token-of-the-old-server"));

    const failure = await connectFailure(server.mcpUrl, store);
    expect(failure).toMatchObject({ code: "AUTH_REQUIRED" });
    expect(failure.message).not.toContain("token-of-the-old-server");

    await loginTo(server.mcpUrl, store);
    expect((await store.read(server.mcpUrl, elsewhere))?.tokens?.access_token).toBe("token-of-the-old-server");
    expect((await store.read(server.mcpUrl, server.issuer))?.tokens?.access_token).not.toBe("token-of-the-old-server");
    // Without an authorization server, the newest login answers.
    expect((await store.read(server.mcpUrl))?.authorizationServer).toBe(server.issuer);
  });

  it("the memory store keys the same way", async () => {
    const store = createMemoryStore();
    await store.write(record("https://mcp.example.com/mcp", "https://a.example", "a"));
    await store.write(record("https://mcp.example.com/mcp", "https://b.example", "b"));
    await store.write(record("https://mcp.example.com/other", "https://a.example", "c"));
    expect((await store.read("https://mcp.example.com/mcp"))?.tokens?.access_token).toBe("b");
    expect((await store.read("https://mcp.example.com/mcp", "https://a.example/"))?.tokens?.access_token).toBe("a");
    expect(await store.delete("https://mcp.example.com/mcp")).toBe(true);
    expect((await store.list()).map((stored) => stored.tokens?.access_token)).toEqual(["c"]);
  });
});

describe("moving files of the per-resource layout", () => {
  const resource = "https://mcp.example.com/mcp";
  const issuer = "https://auth.example.com";

  async function legacyStore(mode = 0o600): Promise<{ directory: string; legacy: string; moved: string }> {
    const directory = await freshDirectory();
    const legacy = join(directory, legacyName(resource));
    await writeFile(legacy, JSON.stringify(record(resource, issuer, "legacy-token")), { mode });
    await chmod(legacy, mode);
    return {
      directory,
      legacy,
      moved: join(directory, credentialsFileName({ resource, authorizationServer: issuer })),
    };
  }

  it("moves an old file to its new name on first use, once, keeping its content and mode", async () => {
    const { directory, legacy, moved } = await legacyStore();
    const before = await readFile(legacy, "utf8");
    const logged: string[] = [];
    const store = createFileStore({ directory, logger: { info: (message) => logged.push(message) } });

    expect((await store.read(resource))?.tokens?.access_token).toBe("legacy-token");
    expect(await readdir(directory)).toEqual([credentialsFileName({ resource, authorizationServer: issuer })]);
    expect(await readFile(moved, "utf8")).toBe(before);
    expect((await lstat(moved)).mode & 0o777).toBe(0o600);
    expect(logged).toHaveLength(1);

    expect((await store.read(resource, issuer))?.tokens?.access_token).toBe("legacy-token");
    expect(logged).toHaveLength(1);
  });

  it('list moves every old file; one without an authorization server is kept under "unknown"', async () => {
    const { directory } = await legacyStore();
    const loose = "https://other.example.com/mcp";
    await writeFile(join(directory, legacyName(loose)), JSON.stringify({ resource: loose }), { mode: 0o600 });
    const listed = await createFileStore({ directory }).list();
    expect(listed.map((stored) => stored.resource).sort()).toEqual([resource, loose].sort());
    expect((await readdir(directory)).sort()).toEqual(
      [credentialsFileName({ resource, authorizationServer: issuer }), credentialsFileName({ resource: loose })].sort(),
    );
    expect(credentialsFileName({ resource: loose })).toMatch(/@unknown\.json$/);
  });

  it("a newer login already in the new layout wins; the old file goes with a warning", async () => {
    const { directory, legacy } = await legacyStore();
    const warnings: string[] = [];
    const store = createFileStore({ directory, logger: { warn: (message) => warnings.push(message) } });
    await store.write(record(resource, issuer, "newer-token"));
    expect((await store.read(resource))?.tokens?.access_token).toBe("newer-token");
    await expect(lstat(legacy)).rejects.toThrow();
    expect(warnings.join("\n")).toMatch(/superseded/);
  });

  it('an old file other users can read is refused and left where it is; with "warn" it is tightened, then moved', async () => {
    const { directory, legacy, moved } = await legacyStore(0o644);
    const error = await createFileStore({ directory })
      .read(resource)
      .catch((caught: unknown) => caught as Error & { code?: string });
    expect(error).toMatchObject({ code: "AUTH_STORE_INSECURE" });
    expect((error as Error).message).toContain(`chmod 600 ${legacy}`);
    expect((error as Error).message).not.toContain("legacy-token");
    expect(await readdir(directory)).toEqual([legacyName(resource)]);

    const store = createFileStore({ directory, onLoosePermissions: "warn", logger: { warn: () => undefined } });
    expect((await store.read(resource))?.tokens?.access_token).toBe("legacy-token");
    expect((await lstat(moved)).mode & 0o777).toBe(0o600);
  });

  it("an old file that is a symbolic link is refused and nothing moves", async () => {
    const directory = await freshDirectory();
    const target = join(root, `planted-${run}.json`);
    await writeFile(target, JSON.stringify(record(resource, issuer, "planted-token")), { mode: 0o600 });
    await symlink(target, join(directory, legacyName(resource)));
    await expect(createFileStore({ directory }).read(resource)).rejects.toMatchObject({ code: "AUTH_STORE_INSECURE" });
    expect(await readdir(directory)).toEqual([legacyName(resource)]);
  });
});
