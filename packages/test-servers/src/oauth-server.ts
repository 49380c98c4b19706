import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express from "express";
import type { Configuration, errors as OidcErrors } from "oidc-provider";
import { bridge, createV2HttpHandler, type V2ServerSetup } from "./v2-servers.js";

/** Where the authorization server's metadata is served (RFC 8414 and OpenID discovery). */
const METADATA_PATHS = new Set(["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]);

/** A pre-registered machine client (client_credentials with a secret) the authorization server knows. */
export const OAUTH_MACHINE_CLIENT = { clientId: "machine-client", clientSecret: "machine-secret-0123456789" } as const;

/** The scopes the protected MCP server advertises (protected-resource metadata `scopes_supported`). */
export const OAUTH_TEST_SCOPES = ["mcp:read", "mcp:write"] as const;

export interface OAuthProtectedServerOptions {
  /** Scopes every MCP request must carry (the bearer middleware's `requiredScopes`). Default `["mcp:read"]`. */
  requiredScopes?: string[];
  /** Access token lifetime at the authorization server, seconds. Default 3600. */
  accessTokenTtlSeconds?: number;
  /**
   * Scopes a `tools/call` of the named tool needs (all of them); a token without them gets
   * `403 insufficient_scope` naming them, as a server asking for a step-up does.
   */
  toolScopes?: Record<string, string[]>;
  /**
   * Serve the v2 SDK test server (`startV2HttpServer`'s tools, both eras unless `modernOnly`)
   * behind the bearer check instead of the `whoami` server; `toolScopes` does not apply to it.
   */
  v2?: V2ServerSetup;
}

/** How the browser the test plays answers the authorization server. */
export interface BrowserOptions {
  /** The user's account id at the login step. Default "alice". */
  account?: string;
  /** Rewrites the final redirect to the client's loopback URI before it is followed (tampering). */
  tamperRedirect?: (redirect: URL) => URL;
}

export interface OAuthProtectedServer {
  /** The authorization server's issuer (oidc-provider on 127.0.0.1). */
  readonly issuer: string;
  /** The MCP endpoint guarded by the SDK's `requireBearerAuth`. */
  readonly mcpUrl: string;
  /** The protected-resource metadata URL the MCP server advertises in WWW-Authenticate. */
  readonly resourceMetadataUrl: string;
  /**
   * Plays the user's browser from an authorization URL: follows redirects with a cookie jar, logs
   * in, submits the consent form, and finally requests the client's redirect URI (its loopback
   * listener). Returns that last response's status and body.
   */
  browse(authorizationUrl: string | URL, options?: BrowserOptions): Promise<{ status: number; body: string }>;
  /** The MCP server treats every access token it has seen so far as expired (as if the clock passed their `exp`). */
  expireSeenTokens(): void;
  /** The authorization server revokes every grant it issued: access and refresh tokens. */
  revokeAllGrants(): Promise<void>;
  /**
   * Hostile switches. `metadata` rewrites the authorization server's metadata document;
   * `resourceMetadata` the MCP server's protected-resource metadata; `tokenEndpoint: "garbage"`
   * makes the token endpoint answer 200 with a non-JSON body.
   */
  readonly hostile: {
    metadata?: (document: Record<string, unknown>) => Record<string, unknown>;
    resourceMetadata?: (document: Record<string, unknown>) => Record<string, unknown>;
    tokenEndpoint?: "garbage";
  };
  /** Requests the MCP endpoint received, with whether they carried an Authorization header (never its value). */
  readonly mcpRequests: readonly { authorized: boolean; status: number }[];
  /** Number of token endpoint requests so far. */
  readonly tokenRequests: number;
  stop(): Promise<void>;
}

/**
 * A real OpenID / OAuth 2.1 authorization server (`oidc-provider`: dynamic client registration,
 * PKCE, refresh tokens, RFC 8707 resource indicators, RFC 9207 `iss`, client_credentials) and a
 * streamable-HTTP MCP server guarded by the SDK's bearer-auth middleware, both on free 127.0.0.1
 * ports. The MCP server has one tool, `whoami`, answering the token's subject, client and scopes.
 */
export async function startOAuthProtectedServer(
  options: OAuthProtectedServerOptions = {},
): Promise<OAuthProtectedServer> {
  // Loaded here, not at the top: every suite imports this package, few need an authorization
  // server, and oidc-provider warns about Node 20 as soon as it loads.
  const { default: Provider, errors: oidcErrors } = await import("oidc-provider");
  const requiredScopes = options.requiredScopes ?? ["mcp:read"];
  const asServer = createServer();
  const mcpServer = createServer();
  const issuer = `http://127.0.0.1:${await listen(asServer)}`;
  const mcpOrigin = `http://127.0.0.1:${await listen(mcpServer)}`;
  const mcpUrl = `${mcpOrigin}/mcp`;
  const resourceMetadataUrl = `${mcpOrigin}/.well-known/oauth-protected-resource/mcp`;

  const hostile: OAuthProtectedServer["hostile"] = {};
  const tokenRequestCount = { value: 0 };
  const mcpRequests: { authorized: boolean; status: number }[] = [];
  const seenTokens = new Set<string>();
  const expiredTokens = new Set<string>();

  const provider = new Provider(
    issuer,
    providerConfiguration(mcpUrl, options.accessTokenTtlSeconds ?? 3600, oidcErrors),
  );
  // Plain HTTP on loopback: the provider would otherwise insist on TLS-terminated requests.
  provider.proxy = true;

  const as = express();
  as.use((req, res, next) => {
    if (req.method === "GET" && METADATA_PATHS.has(req.path) && hostile.metadata && !req.headers["x-unrewritten"]) {
      void rewriteJson(`${issuer}${req.path}`, res, hostile.metadata);
      return;
    }
    if (req.method === "POST" && req.path === "/token") {
      tokenRequestCount.value += 1;
      if (hostile.tokenEndpoint === "garbage") {
        res.status(200).type("text/html").send("<html>temporarily unavailable</html>");
        return;
      }
    }
    next();
  });
  const form = express.urlencoded({ extended: false });
  as.get("/interaction/:uid", async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === "login") {
        res
          .type("html")
          .send(`<form method="post" action="/interaction/${details.uid}/login"><input name="account"></form>`);
        return;
      }
      res
        .type("html")
        .send(`<form method="post" action="/interaction/${details.uid}/confirm"><button>Allow</button></form>`);
    } catch (error) {
      next(error);
    }
  });
  as.post("/interaction/:uid/login", form, async (req, res, next) => {
    try {
      const account = (req.body as Record<string, string | undefined>).account ?? "alice";
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      next(error);
    }
  });
  as.post("/interaction/:uid/confirm", form, async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      const { prompt, params, session } = details;
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({ accountId: session?.accountId ?? "alice", clientId: String(params.client_id) });
      if (!grant) throw new Error("grant vanished");
      const missing = prompt.details as {
        missingOIDCScope?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
        grant.addResourceScope(indicator, scopes.join(" "));
      }
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      next(error);
    }
  });
  as.use(provider.callback());
  asServer.on("request", as);

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const found = (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token));
      if (!found) throw new InvalidTokenError("Token is not active");
      seenTokens.add(token);
      return {
        token,
        clientId: found.clientId ?? "",
        scopes: (found.scope ?? "").split(" ").filter(Boolean),
        expiresAt: expiredTokens.has(token) ? Math.floor(Date.now() / 1000) - 60 : (found.exp ?? 0),
        ...(typeof found.aud === "string" ? { resource: new URL(found.aud) } : {}),
        extra: { subject: "accountId" in found ? found.accountId : found.clientId },
      };
    },
  };

  const mcp = express();
  mcp.get("/.well-known/oauth-protected-resource/mcp", (_req, res) => {
    const document: Record<string, unknown> = {
      resource: mcpUrl,
      authorization_servers: [issuer],
      scopes_supported: [...OAUTH_TEST_SCOPES],
      bearer_methods_supported: ["header"],
    };
    res.json(hostile.resourceMetadata ? hostile.resourceMetadata(document) : document);
  });
  mcp.use("/mcp", (req, res, next) => {
    res.on("finish", () =>
      mcpRequests.push({ authorized: req.headers.authorization !== undefined, status: res.statusCode }),
    );
    next();
  });
  mcp.use(
    "/mcp",
    requireBearerAuth({ verifier, requiredScopes, resourceMetadataUrl, expectedResource: new URL(mcpUrl) }),
  );
  const v2Handler = options.v2 === undefined ? undefined : createV2HttpHandler(options.v2);
  if (v2Handler !== undefined) mcp.all("/mcp", (req, res) => void bridge(v2Handler.fetch, req, res, []));
  mcp.all("/mcp", express.json(), async (req, res) => {
    const server = new McpServer({ name: "oauth-protected", version: "1.0.0" });
    const auth = req.auth;
    const body = req.body as { method?: unknown; params?: { name?: unknown } } | undefined;
    const toolScopes = body?.method === "tools/call" ? options.toolScopes?.[String(body.params?.name)] : undefined;
    if (toolScopes !== undefined && !toolScopes.every((scope) => auth?.scopes.includes(scope))) {
      res
        .status(403)
        .set(
          "WWW-Authenticate",
          `Bearer error="insufficient_scope", scope="${toolScopes.join(" ")}", resource_metadata="${resourceMetadataUrl}"`,
        )
        .json({ error: "insufficient_scope" });
      return;
    }
    server.registerTool("whoami", { description: "Who the access token belongs to" }, () => ({
      content: [
        {
          type: "text",
          text: JSON.stringify({ subject: auth?.extra?.subject, clientId: auth?.clientId, scopes: auth?.scopes }),
        },
      ],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  mcpServer.on("request", mcp);

  return {
    issuer,
    mcpUrl,
    resourceMetadataUrl,
    hostile,
    mcpRequests,
    get tokenRequests() {
      return tokenRequestCount.value;
    },
    browse: (authorizationUrl, browserOptions) => playBrowser(new URL(authorizationUrl), issuer, browserOptions ?? {}),
    expireSeenTokens() {
      for (const token of seenTokens) expiredTokens.add(token);
    },
    async revokeAllGrants() {
      for (const token of seenTokens) {
        const found = await provider.AccessToken.find(token);
        if (found?.grantId === undefined) continue;
        await provider.AccessToken.revokeByGrantId(found.grantId);
        await provider.RefreshToken.revokeByGrantId(found.grantId);
        await (await provider.Grant.find(found.grantId))?.destroy();
      }
    },
    async stop() {
      await v2Handler?.close();
      await Promise.all([close(asServer), close(mcpServer)]);
    },
  };
}

function providerConfiguration(resource: string, accessTokenTTL: number, oidcErrors: typeof OidcErrors): Configuration {
  return {
    clients: [
      {
        client_id: OAUTH_MACHINE_CLIENT.clientId,
        client_secret: OAUTH_MACHINE_CLIENT.clientSecret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    scopes: ["openid", "offline_access", ...OAUTH_TEST_SCOPES],
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    // A client allowed to refresh gets a refresh token without asking for offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator.replace(/\/$/, "") !== resource) throw new oidcErrors.InvalidTarget();
          return { scope: OAUTH_TEST_SCOPES.join(" "), accessTokenFormat: "opaque", accessTokenTTL };
        },
      },
    },
    ttl: { AccessToken: accessTokenTTL, ClientCredentials: accessTokenTTL },
  };
}

async function listen(server: Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Serves the provider's own document at `url`, rewritten. */
async function rewriteJson(
  url: string,
  res: ServerResponse,
  rewrite: (document: Record<string, unknown>) => Record<string, unknown>,
): Promise<void> {
  // The provider answers its own discovery document; a second request to it avoids re-implementing it.
  const response = await fetch(url, { headers: { "x-unrewritten": "1" } });
  const document = (await response.json()) as Record<string, unknown>;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(rewrite(document)));
}

/**
 * The user's browser: a cookie jar, redirects followed by hand, the login and consent forms
 * submitted. Stops at the first request that leaves the authorization server (the client's
 * redirect URI) and returns that response.
 */
async function playBrowser(
  start: URL,
  issuer: string,
  options: BrowserOptions,
): Promise<{ status: number; body: string }> {
  const cookies = new Map<string, string>();
  let url = start;
  let method = "GET";
  let body: string | undefined;
  for (let step = 0; step < 20; step += 1) {
    const leaving = url.origin !== new URL(issuer).origin;
    if (leaving && options.tamperRedirect) url = options.tamperRedirect(url);
    const response = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        ...(leaving || cookies.size === 0 ? {} : { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") }),
        ...(body === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
      },
      ...(body === undefined ? {} : { body }),
    });
    if (leaving) return { status: response.status, body: await response.text() };
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair && eq > 0) cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url);
      method = "GET";
      body = undefined;
      continue;
    }
    const html = await response.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action)
      throw new Error(`The authorization server answered ${response.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    url = new URL(action, url);
    method = "POST";
    body = action.endsWith("/login") ? `account=${encodeURIComponent(options.account ?? "alice")}` : "";
  }
  throw new Error("The browser followed 20 redirects without reaching the client's redirect URI.");
}
