import { startOAuthProtectedServer, type OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MCPConfigError, MCPToolAdapter } from "../src/index.js";
import { createMemoryStore, NodeOAuthClientProvider, type CredentialStore } from "../src/oauth-entry.js";
import { logInByBrowser } from "./log-in-by-browser.js";

// `auth` on one adapter means what it means in a server set entry and a config file: the umbrella's
// adapter turns it into an OAuth provider that uses the stored login. A real authorization server
// (oidc-provider) and an MCP server behind the SDK's bearer-auth middleware, one pair for the file.
let server: OAuthProtectedServer;
const adapters: MCPToolAdapter[] = [];

beforeAll(async () => {
  server = await startOAuthProtectedServer();
}, 30_000);
afterAll(async () => {
  await server.stop();
});
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});

function oauthAdapter(store: CredentialStore, loginHint?: string): MCPToolAdapter {
  const adapter = new MCPToolAdapter(
    { name: "protected", transport: "streamable-http", url: server.mcpUrl, auth: { type: "oauth" } },
    { auth: { store, ...(loginHint === undefined ? {} : { loginHint }) }, defaultTimeoutMs: 10_000 },
  );
  adapters.push(adapter);
  return adapter;
}

function codesOf(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let link = error; link instanceof Error; link = link.cause) codes.push((link as { code?: unknown }).code);
  return codes;
}

function configError(run: () => unknown): MCPConfigError {
  try {
    run();
  } catch (error) {
    if (MCPConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected an MCPConfigError, nothing was thrown");
}

describe("auth on a single MCPToolAdapter", () => {
  it("uses the stored login: connects with its token and calls a tool", async () => {
    const store = createMemoryStore();
    await logInByBrowser(server, store);

    const adapter = oauthAdapter(store);
    await adapter.connect();
    const result = await adapter.invoke("whoami", {});
    expect(result.error).toBeNull();
    expect(JSON.stringify(result.data)).toContain("mcp:read");
    expect(server.mcpRequests.at(-1)).toMatchObject({ authorized: true, status: 200 });
  });

  it("without a stored login, connect fails with AUTH_REQUIRED and the login hint, sending no token", async () => {
    const requestsBefore = server.mcpRequests.length;
    const adapter = oauthAdapter(createMemoryStore(), "run `my-agent login`");
    const error = await adapter.connect().catch((failure: unknown) => failure);
    expect(codesOf(error)).toContain("AUTH_REQUIRED");
    expect((error as Error).message).toContain("run `my-agent login`");
    expect(server.mcpRequests.slice(requestsBefore).every((request) => !request.authorized)).toBe(true);
  });

  it("refuses auth where it cannot apply, naming what to do", () => {
    const http = { name: "protected", transport: "streamable-http" as const, url: "http://127.0.0.1:1/mcp" };
    const stdio = configError(
      () => new MCPToolAdapter({ name: "local", transport: "stdio", command: "node", auth: { type: "oauth" } }),
    );
    expect(stdio.issues).toEqual([{ path: "/auth", message: expect.stringContaining("HTTP servers only") as string }]);
    const both = configError(
      () =>
        new MCPToolAdapter(
          { ...http, auth: { type: "oauth" } },
          { authProvider: new NodeOAuthClientProvider(http.url, { store: createMemoryStore() }) },
        ),
    );
    expect(both.message).toContain("keep one of them");
    const bearer = configError(() => new MCPToolAdapter({ ...http, auth: { type: "bearer", token: "t" } as never }));
    expect(bearer.message).toContain("Authorization");
    expect(bearer.message).not.toContain('"t"');
  });
});
