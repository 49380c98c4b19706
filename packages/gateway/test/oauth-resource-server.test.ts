import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createGateway, listenHttp, type Gateway, type GatewayHttpServer } from "../src/index.js";
import { realUpstreams, type Upstreams } from "./fixtures.js";

// OAuth resource-server mode against an issuer on 127.0.0.1 that publishes its metadata and keys
// (JWKS) over HTTP: a token for this gateway passes; one for another audience, from another key,
// expired, or missing a scope is refused with 401 naming why, and the gateway goes on.
let upstreams: Upstreams;
let gateway: Gateway;
let http: GatewayHttpServer;
let issuerServer: Server;
let issuer: string;
let signingKey: CryptoKey;
let foreignKey: CryptoKey;
let resource: string;

async function token(
  options: { audience?: string; key?: CryptoKey; expiresIn?: string; scope?: string } = {},
): Promise<string> {
  return new SignJWT({ scope: options.scope ?? "mcp:tools" })
    .setProtectedHeader({ alg: "RS256", kid: "test-key" })
    .setIssuer(issuer)
    .setAudience(options.audience ?? resource)
    .setSubject("user-1")
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "5m")
    .sign(options.key ?? signingKey);
}

async function post(authorization: string | undefined): Promise<Response> {
  return fetch(http.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  signingKey = pair.privateKey;
  foreignKey = (await generateKeyPair("RS256")).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  issuerServer = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    if (request.url === "/.well-known/oauth-authorization-server")
      response.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    else if (request.url === "/jwks") response.end(JSON.stringify({ keys: [jwk] }));
    else response.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => issuerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;

  upstreams = await realUpstreams(["everything"]);
  gateway = createGateway({ servers: upstreams.servers });
  await gateway.start();
  // The resource URL must be known before listening: listen once on a free port, then again on it with OAuth.
  const probe = await listenHttp(gateway);
  const port = probe.port;
  await probe.close();
  resource = `http://127.0.0.1:${port}/mcp`;
  http = await listenHttp(gateway, { port, auth: { oauth: { issuer, resource, requiredScopes: ["mcp:tools"] } } });
}, 120_000);

afterAll(async () => {
  await http.close();
  await gateway.close();
  await upstreams.remove();
  await new Promise((resolve) => issuerServer.close(resolve));
}, 60_000);

describe("OAuth resource-server mode", () => {
  it("publishes protected-resource metadata naming the issuer", async () => {
    const response = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", http.url));
    expect(await response.json()).toMatchObject({ resource, authorization_servers: [issuer] });
  });

  it("answers a request without a token with 401 pointing at the metadata", async () => {
    const response = await post(undefined);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("resource_metadata=");
  });

  it("serves a client whose token is for this gateway", async () => {
    const client = new Client({ name: "oauth-client", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { authorization: `Bearer ${await token()}` } },
      }),
    );
    const echo = await client.callTool({ name: "echo", arguments: { message: "authorized" } });
    expect(JSON.stringify(echo.content)).toContain("authorized");
    await client.close();
  });

  it.each([
    {
      label: "a token for another audience",
      make: () => token({ audience: "https://other.example/mcp" }),
      why: /another audience/,
    },
    { label: "a token signed by another key", make: () => token({ key: foreignKey }), why: /signature/ },
    { label: "an expired token", make: () => token({ expiresIn: "-1m" }), why: /expired/ },
    { label: "a token without the required scope", make: () => token({ scope: "profile" }), why: /lacks the scope/ },
    { label: "something that is not a JWT", make: () => Promise.resolve("not-a-jwt"), why: /not a valid JWT/ },
  ])("refuses $label with 401 saying why, and goes on", async ({ make, why }) => {
    const response = await post(`Bearer ${await make()}`);
    expect(response.status).toBe(401);
    const body = (await response.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe("UNAUTHORIZED");
    expect(body.error.message).toMatch(why);
    expect((await post(`Bearer ${await token()}`)).status).toBe(200);
  });
});
