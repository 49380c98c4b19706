import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { startOAuthProtectedServer, type OAuthProtectedServer } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "../src/index.js";
import { createMemoryStore, NodeOAuthClientProvider, type CredentialStore } from "../src/oauth-entry.js";
import { logInByBrowser } from "./log-in-by-browser.js";

// oidc-provider and the 2025-era `whoami` server behind the bearer check: engine-2026's 2025-era
// streamable HTTP connections (`protocol: "2025"`, and `auto`, whose probe finds 2025) go on
// through transport-http's client after the probe, with the same OAuth provider. The login of the
// second test is what the later ones use.
let server: OAuthProtectedServer;
let store: CredentialStore;
const LOGIN_HINT = "run `mcp-tool-adapter login docs`";

beforeAll(async () => {
  server = await startOAuthProtectedServer();
  store = createMemoryStore();
}, 30_000);
afterAll(async () => {
  await server.stop();
});

const SETTINGS = [
  { setting: '"2025"', protocol: "2025" as const },
  { setting: "auto", protocol: undefined },
];

function adapterOn(protocol: "2025" | undefined): MCPToolAdapter {
  const authProvider = new NodeOAuthClientProvider(server.mcpUrl, { store, loginHint: LOGIN_HINT });
  return new MCPToolAdapter(
    { name: "docs", transport: "streamable-http", url: server.mcpUrl, ...(protocol === undefined ? {} : { protocol }) },
    { engine: createEngine2026(), transportOptions: { http: { authProvider } }, defaultTimeoutMs: 10_000 },
  );
}

function codesOf(error: unknown): unknown[] {
  const codes: unknown[] = [];
  for (let link = error; link instanceof Error; link = link.cause) codes.push((link as { code?: unknown }).code);
  return codes;
}

describe("OAuth on engine-2026's 2025-era streamable HTTP connections, against oidc-provider", () => {
  it.each(SETTINGS)(
    "before any login, connect fails with AUTH_REQUIRED and the login hint (protocol $setting)",
    async ({ protocol }) => {
      const adapter = adapterOn(protocol);
      const error = await adapter.connect().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      await adapter.disconnect();
      expect(codesOf(error)).toContain("AUTH_REQUIRED");
      expect((error as Error).message).toContain(LOGIN_HINT);
      expect(server.mcpRequests.every((request) => !request.authorized)).toBe(true);
    },
  );

  it.each(SETTINGS)(
    "after a login, connects on 2025 with the stored tokens and calls a tool (protocol $setting)",
    async ({ protocol }) => {
      if (!(await store.list()).length) await logInByBrowser(server, store);
      const adapter = adapterOn(protocol);
      try {
        await adapter.connect();
        expect(adapter.protocolEra).toBe("2025");
        const result = await adapter.invoke("whoami", {});
        expect(result).toMatchObject({ success: true });
      } finally {
        await adapter.disconnect();
      }
      expect(server.mcpRequests.at(-1)).toMatchObject({ authorized: true });
    },
  );

  it.each(SETTINGS)(
    "an access token the server calls expired is refreshed and the call goes through (protocol $setting)",
    async ({ protocol }) => {
      const adapter = adapterOn(protocol);
      try {
        await adapter.connect();
        await adapter.discoverTools();
        server.expireSeenTokens();
        const tokenRequests = server.tokenRequests;
        expect(await adapter.invoke("whoami", {})).toMatchObject({ success: true });
        expect(server.tokenRequests).toBeGreaterThan(tokenRequests);
      } finally {
        await adapter.disconnect();
      }
    },
  );

  it.each(SETTINGS)(
    "the config's headers reach the server: a static bearer and no provider (protocol $setting)",
    async ({ protocol }) => {
      const token = (await store.read(server.mcpUrl))?.tokens?.access_token;
      expect(token).toEqual(expect.any(String));
      const adapter = new MCPToolAdapter(
        {
          name: "docs",
          transport: "streamable-http",
          url: server.mcpUrl,
          headers: { Authorization: `Bearer ${String(token)}` },
          ...(protocol === undefined ? {} : { protocol }),
        },
        { engine: createEngine2026(), defaultTimeoutMs: 10_000 },
      );
      const requests = server.mcpRequests.length;
      try {
        await adapter.connect();
        expect(adapter.protocolEra).toBe("2025");
        expect(await adapter.invoke("whoami", {})).toMatchObject({ success: true });
      } finally {
        await adapter.disconnect();
      }
      expect(server.mcpRequests.slice(requests).every((request) => request.authorized)).toBe(true);
    },
  );
});
