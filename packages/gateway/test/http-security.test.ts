import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { GatewayError, listenHttp, type GatewayHttpServer } from "../src/index.js";
import { httpGatewayForFile } from "./fixtures.js";

// Hostile downstream input against a gateway on 127.0.0.1: each gets a clear, classified refusal,
// and a well-behaved client still lists and calls through the same gateway afterwards.
const TOKEN = "a-long-random-token-for-the-test-0123456789";
const running = httpGatewayForFile({ upstreams: ["everything"], http: { maxBodyBytes: 64 * 1024 } });
// The same gateway behind a second listener that asks for a bearer token.
let guarded: GatewayHttpServer;

beforeAll(async () => {
  guarded = await listenHttp(running.gateway, { auth: { bearerToken: TOKEN } });
}, 60_000);

afterAll(async () => {
  await guarded.close();
}, 60_000);

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request (node:http, so Host and Origin can be anything). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {} },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function errorCode(response: RawResponse): unknown {
  return (JSON.parse(response.body) as { error: { data: { code: unknown } } }).error.data.code;
}

async function stillServes(url: string, headers: Record<string, string> = {}): Promise<void> {
  const client = new Client({ name: "after-hostile-input", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    const echo = await client.callTool({ name: "echo", arguments: { message: "still here" } });
    expect(JSON.stringify(echo.content)).toContain("still here");
  } finally {
    await client.close();
  }
}

describe("DNS rebinding", () => {
  it("refuses a foreign Origin with 403 FORBIDDEN_ORIGIN and goes on", async () => {
    const response = await raw(running.http.url, {
      headers: { ...mcpHeaders, origin: "https://evil.example" },
      body: initialize,
    });
    expect(response.status).toBe(403);
    expect(errorCode(response)).toBe("FORBIDDEN_ORIGIN");
    expect(response.body).toContain("evil.example");
    await stillServes(running.http.url);
  });

  it("refuses a Host header naming another site with 403 FORBIDDEN_HOST", async () => {
    const response = await raw(running.http.url, {
      headers: { ...mcpHeaders, host: "attacker.example:80" },
      body: initialize,
    });
    expect(response.status).toBe(403);
    expect(errorCode(response)).toBe("FORBIDDEN_HOST");
  });

  it("lets a local page's Origin through", async () => {
    const response = await raw(running.http.url, {
      headers: { ...mcpHeaders, origin: "http://localhost:5173" },
      body: initialize,
    });
    expect(response.status).toBe(200);
  });
});

describe("hostile messages", () => {
  it("refuses an oversized body with 413 PAYLOAD_TOO_LARGE and goes on", async () => {
    const big = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { padding: "x".repeat(200_000) },
    });
    const response = await raw(running.http.url, { headers: mcpHeaders, body: big });
    expect(response.status).toBe(413);
    expect(errorCode(response)).toBe("PAYLOAD_TOO_LARGE");
    await stillServes(running.http.url);
  });

  it("answers a body that is not JSON with 400", async () => {
    const response = await raw(running.http.url, { headers: mcpHeaders, body: "{not json" });
    expect(response.status).toBe(400);
    expect(errorCode(response)).toBe("BAD_REQUEST");
  });

  it("answers an unknown session with 404 naming what to do", async () => {
    const response = await raw(running.http.url, {
      headers: { ...mcpHeaders, "mcp-session-id": "no-such-session" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
    expect(response.body).toContain("initialize again");
  });

  it("answers an unknown method with JSON-RPC method-not-found and goes on", async () => {
    const client = new Client({ name: "unknown-method", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.http.url)));
    try {
      await expect(
        client.request(
          { method: "gateway/self-destruct", params: {} },
          (await import("@modelcontextprotocol/sdk/types.js")).EmptyResultSchema,
        ),
      ).rejects.toThrow(/-32601|Method not found/);
      const echo = await client.callTool({ name: "echo", arguments: { message: "after" } });
      expect(JSON.stringify(echo.content)).toContain("after");
    } finally {
      await client.close();
    }
  });
});

describe("authorization", () => {
  it("refuses a request without the bearer token with 401 and WWW-Authenticate", async () => {
    const response = await raw(guarded.url, { headers: mcpHeaders, body: initialize });
    expect(response.status).toBe(401);
    expect(response.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(errorCode(response)).toBe("UNAUTHORIZED");
  });

  it("refuses a wrong token", async () => {
    const response = await raw(guarded.url, {
      headers: { ...mcpHeaders, authorization: "Bearer wrong-token-wrong-token" },
      body: initialize,
    });
    expect(response.status).toBe(401);
  });

  it("serves a client that sends the token", async () => {
    await stillServes(guarded.url, { authorization: `Bearer ${TOKEN}` });
  });

  it("will not listen beyond loopback without authorization", async () => {
    const attempt = listenHttp(running.gateway, { host: "0.0.0.0" });
    await expect(attempt).rejects.toSatisfy(
      (error: unknown) => GatewayError.isInstance(error) && error.code === "GATEWAY_OPTIONS_INVALID",
    );
    await expect(attempt).rejects.toThrow(/needs authorization/);
  });

  it("refuses a short bearer token", async () => {
    await expect(listenHttp(running.gateway, { auth: { bearerToken: "short" } })).rejects.toThrow(/shorter than 16/);
  });
});
