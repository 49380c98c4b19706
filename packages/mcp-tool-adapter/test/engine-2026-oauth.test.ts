import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { startOAuthProtectedServer, type OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPServerSet, MCPToolAdapter } from "../src/index.js";
import { createMemoryStore, NodeOAuthClientProvider, type CredentialStore } from "../src/oauth-entry.js";
import { logInByBrowser } from "./log-in-by-browser.js";

// oidc-provider and a modern-only SDK v2 server behind the SDK's bearer-auth middleware, one pair
// for the file: the login of the second test is what the later ones use.
let server: OAuthProtectedServer;
let store: CredentialStore;
const LOGIN_HINT = "run `mcp-tool-adapter login docs`";

beforeAll(async () => {
  server = await startOAuthProtectedServer({ v2: { modernOnly: true } });
  store = createMemoryStore();
}, 30_000);
afterAll(async () => {
  await server.stop();
});

function adapterOn2026(): MCPToolAdapter {
  const authProvider = new NodeOAuthClientProvider(server.mcpUrl, { store, loginHint: LOGIN_HINT });
  return new MCPToolAdapter(
    { name: "docs", transport: "streamable-http", url: server.mcpUrl, protocol: "2026-07-28" },
    { engine: createEngine2026(), transportOptions: { http: { authProvider } }, defaultTimeoutMs: 10_000 },
  );
}

async function connectError(adapter: MCPToolAdapter): Promise<unknown> {
  try {
    await adapter.connect();
  } catch (error) {
    return error;
  } finally {
    await adapter.disconnect();
  }
  return undefined;
}

function codesOf(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let link = error; link instanceof Error; link = link.cause) codes.push((link as { code?: unknown }).code);
  return codes;
}

describe("OAuth on engine-2026 (protocol 2026-07-28) against oidc-provider and a v2 server", () => {
  it("before any login, connect fails with AUTH_REQUIRED and the login hint, and a server set reports it", async () => {
    const error = await connectError(adapterOn2026());
    expect(codesOf(error)).toContain("AUTH_REQUIRED");
    expect((error as Error).message).toContain(LOGIN_HINT);

    // The server set's stored-login path (an entry without `auth`): no prompt, AUTH_REQUIRED.
    const set = new MCPServerSet(
      { docs: { transport: "streamable-http", url: server.mcpUrl, protocol: "2026-07-28" } },
      { engine: createEngine2026(), auth: { store, loginHint: () => LOGIN_HINT } },
    );
    try {
      const report = await set.connect();
      expect(report.failed).toEqual(["docs"]);
      expect(report.servers[0]?.error).toMatchObject({ code: "AUTH_REQUIRED" });
    } finally {
      await set.close();
    }
    expect(server.mcpRequests.every((request) => !request.authorized)).toBe(true);
  });

  it("after a login, connects on 2026-07-28 with the stored tokens and calls a tool", async () => {
    await logInByBrowser(server, store);

    const adapter = adapterOn2026();
    try {
      await adapter.connect();
      expect(adapter.protocolEra).toBe("2026-07-28");
      await adapter.discoverTools();
      const result = await adapter.invoke("echo", { text: "hi" });
      expect(result).toMatchObject({ success: true });
      expect(JSON.stringify(result.data)).toContain("echo: hi");
    } finally {
      await adapter.disconnect();
    }
    expect(server.mcpRequests.at(-1)).toMatchObject({ authorized: true, status: 200 });
  });

  it("the server set uses the stored login on engine-2026", async () => {
    const set = new MCPServerSet(
      { docs: { transport: "streamable-http", url: server.mcpUrl, protocol: "2026-07-28" } },
      { engine: createEngine2026(), auth: { store } },
    );
    try {
      const report = await set.connect();
      expect(report.connected).toEqual(["docs"]);
      expect(set.registry.list().map((tool) => tool.name)).toContain("docs/echo");
    } finally {
      await set.close();
    }
  });

  it("a single adapter's config auth uses the stored login on engine-2026", async () => {
    const adapter = new MCPToolAdapter(
      {
        name: "docs",
        transport: "streamable-http",
        url: server.mcpUrl,
        protocol: "2026-07-28",
        auth: { type: "oauth" },
      },
      { engine: createEngine2026(), auth: { store }, defaultTimeoutMs: 10_000 },
    );
    try {
      await adapter.connect();
      expect(adapter.protocolEra).toBe("2026-07-28");
      expect(await adapter.invoke("echo", { text: "config auth" })).toMatchObject({ success: true });
    } finally {
      await adapter.disconnect();
    }
    expect(server.mcpRequests.at(-1)).toMatchObject({ authorized: true, status: 200 });
  });

  it("an access token the server calls expired is refreshed and the call goes through", async () => {
    const adapter = adapterOn2026();
    try {
      await adapter.connect();
      await adapter.discoverTools();
      server.expireSeenTokens();
      const tokenRequests = server.tokenRequests;
      const result = await adapter.invoke("echo", { text: "after refresh" });
      expect(result).toMatchObject({ success: true });
      expect(server.tokenRequests).toBeGreaterThan(tokenRequests);
    } finally {
      await adapter.disconnect();
    }
  });
});
