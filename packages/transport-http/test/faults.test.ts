import {
  expectNoLeakedProcesses,
  findFreePort,
  startFaultHttpServer,
  startEverythingHttp,
  type FaultHttpServer,
} from "@mcp-tool-adapter/test-servers";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  createSseTransport,
  createStreamableHttpTransport,
  HttpTransportError,
  type HttpTransportErrorCode,
} from "../src/index.js";
import { errorTexts, newClient, recordingLogger, rejectionOf, waitFor } from "./helpers.js";

let servers: FaultHttpServer[] = [];

async function faultServer(...args: Parameters<typeof startFaultHttpServer>): Promise<FaultHttpServer> {
  const server = await startFaultHttpServer(...args);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Connects a client and returns the connect rejection plus everything onerror reported. */
async function failingConnect(transport: ReturnType<typeof createSseTransport>, timeoutMs = 10_000) {
  const reported: Error[] = [];
  transport.onerror = (error) => reported.push(error);
  const client = newClient();
  const error = await rejectionOf(client.connect(transport, { timeout: timeoutMs }));
  await client.close();
  return { error, reported };
}

function expectHttpError(error: unknown, code: HttpTransportErrorCode): HttpTransportError {
  expect(HttpTransportError.isInstance(error), `not an HttpTransportError: ${String(error)}`).toBe(true);
  const httpError = error as HttpTransportError;
  expect(httpError.code).toBe(code);
  expect(httpError).toBeInstanceOf(HttpTransportError);
  expect(httpError.name).toBe("HttpTransportError");
  return httpError;
}

const kinds = [
  { kind: "streamable-http", create: createStreamableHttpTransport },
  { kind: "sse", create: createSseTransport },
] as const;

describe.each(kinds)("$kind failures", ({ kind, create }) => {
  it("classifies a port with nothing listening as CONNECTION_FAILED, through onerror and the rejection", async () => {
    const port = await findFreePort();
    const { error, reported } = await failingConnect(create({ url: `http://127.0.0.1:${port}/mcp` }));
    const failure = expectHttpError(error, "CONNECTION_FAILED");
    expect(failure.message).toContain("ECONNREFUSED");
    expect(failure.message).toContain(`http://127.0.0.1:${port}/mcp`);
    expect(failure.status).toBeUndefined();
    expect(failure.cause).toBeInstanceOf(Error);
    expect(reported).toContain(failure);
  });

  it("classifies DNS failure of a .invalid host as CONNECTION_FAILED", async () => {
    // .invalid never resolves (RFC 6761); verified to answer NXDOMAIN locally, without network.
    const { error } = await failingConnect(create({ url: "http://nonexistent.invalid/mcp" }));
    const failure = expectHttpError(error, "CONNECTION_FAILED");
    expect(failure.message).toContain("ENOTFOUND");
    expect(failure.message).toMatch(/host name could not be resolved/);
  });

  it.each([
    { status: 401, code: "AUTH_FAILED", text: /Authentication failed \(HTTP 401\).*Authorization header/ },
    { status: 403, code: "AUTH_FAILED", text: /Authorization failed \(HTTP 403\).*scopes or permissions/ },
    { status: 500, code: "SERVER_ERROR", text: /HTTP 500 \(server error\)/ },
    { status: 503, code: "SERVER_ERROR", text: /HTTP 503/ },
    { status: 404, code: "NOT_FOUND", text: /HTTP 404/ },
    { status: 405, code: "METHOD_NOT_ALLOWED", text: /HTTP 405/ },
    { status: 429, code: "CLIENT_ERROR", text: /HTTP 429/ },
  ] as const)("classifies HTTP $status as $code with its status", async ({ status, code, text }) => {
    const server = await faultServer({ kind: "status", status, body: "nope" });
    const { error, reported } = await failingConnect(create({ url: server.url }));
    const failure = expectHttpError(error, code);
    expect(failure.status).toBe(status);
    expect(failure.message).toMatch(text);
    expect(failure.cause).toBeDefined();
    expect(reported).toContain(failure);
  });

  it("classifies a dropped connection as CONNECTION_FAILED", async () => {
    const server = await faultServer({ kind: "close" });
    const { error } = await failingConnect(create({ url: server.url }));
    expect(expectHttpError(error, "CONNECTION_FAILED").message).toMatch(/closed the connection|network error/);
  });

  it("leaks no header value, URL credential or query token into errors, causes or logs", async () => {
    const secrets = ["Bearer-Token-3f9a1c", "api-key-77de21", "cookie-value-5512", "user-pw-8812", "query-token-9931"];
    // The server echoes every credential it got, as careless servers do.
    const server = await faultServer((request) => ({
      kind: "status",
      status: 401,
      body: `denied: ${request.headers.authorization ?? ""} ${String(request.headers["x-api-key"])} ${request.headers.cookie ?? ""} ${request.url}`,
    }));
    const logger = recordingLogger();
    const url = new URL(server.url);
    url.username = "alice";
    url.password = "user-pw-8812";
    url.searchParams.set("token", "query-token-9931");
    const transport = create(
      { url: url.href, headers: { "X-Api-Key": "api-key-77de21", Cookie: "session=cookie-value-5512" } },
      { logger },
    );
    const { error, reported } = await failingConnect(transport);
    expectHttpError(error, "AUTH_FAILED");
    // The credentials did reach the server...
    expect(server.requests[0]?.headers["x-api-key"]).toBe("api-key-77de21");
    expect(server.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("alice:user-pw-8812").toString("base64")}`,
    );
    // ...and were echoed back, yet appear in nothing we raise or log.
    const texts = [
      ...errorTexts(error),
      ...reported.flatMap((e) => errorTexts(e)),
      ...logger.lines.map((line) => JSON.stringify(line)),
    ];
    // The streamable transport quotes the response body (the echo) in its error; the SSE one does not.
    if (kind === "streamable-http") expect(texts.join("\n")).toContain("[REDACTED]");
    const basic = Buffer.from("alice:user-pw-8812").toString("base64");
    for (const secret of [...secrets.slice(1), basic]) {
      expect(texts.filter((text) => text.includes(secret))).toEqual([]);
    }
    expect(logger.lines.length).toBeGreaterThan(0);
  });

  it("passes an authProvider's token through and redacts it", async () => {
    const server = await faultServer((request) => ({
      kind: "status",
      status: 500,
      body: `boom ${request.headers.authorization ?? ""}`,
    }));
    const authProvider = {
      tokens: () => ({ access_token: "oauth-access-4471", token_type: "Bearer" }),
    } as unknown as OAuthClientProvider;
    const { error } = await failingConnect(create({ url: server.url }, { authProvider }));
    expectHttpError(error, "SERVER_ERROR");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer oauth-access-4471");
    expect(errorTexts(error).filter((text) => text.includes("oauth-access-4471"))).toEqual([]);
  });

  it("sends the configured headers and uses the injected fetch", async () => {
    const server = await faultServer({ kind: "status", status: 500 });
    const seen: string[] = [];
    const injected: typeof fetch = (input, init) => {
      seen.push(
        `${init?.method ?? "GET"} ${typeof input === "string" ? input : input instanceof URL ? input.href : input.url}`,
      );
      return fetch(input, init);
    };
    await failingConnect(create({ url: server.url, headers: { "X-Tenant": "tenant-a" } }, { fetch: injected }));
    expect(server.requests.length).toBeGreaterThan(0);
    for (const request of server.requests) expect(request.headers["x-tenant"]).toBe("tenant-a");
    expect(seen.length).toBe(server.requests.length);
  });
});

describe("hanging server", () => {
  it("times out the initialize request, then closes cleanly without leaving a connection open", async () => {
    const server = await faultServer({ kind: "hang" });
    const transport = createStreamableHttpTransport({ url: server.url });
    const reported: Error[] = [];
    transport.onerror = (error) => reported.push(error);
    let closes = 0;
    const client = newClient();
    client.onclose = () => (closes += 1);
    const error = await rejectionOf(client.connect(transport, { timeout: 300 }));
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
    await waitFor(() => server.openConnections > 0);
    await client.close();
    await waitFor(() => server.openConnections === 0);
    expect(closes).toBe(1);
    // The abort of the hanging request on close is not an error worth reporting.
    expect(reported).toEqual([]);
  });
});

describe("SSE transport against a programmable server", () => {
  it("sends the configured headers on the event-stream GET and on the POSTs", async () => {
    const server = await faultServer((request) =>
      request.method === "GET"
        ? {
            kind: "chunks",
            contentType: "text/event-stream",
            chunks: ["event: endpoint\ndata: /message?sessionId=s1\n\n"],
            keepOpen: true,
          }
        : { kind: "status", status: 202 },
    );
    const transport = createSseTransport({ url: server.url, headers: { "X-Tenant": "tenant-b" } });
    await transport.start();
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await transport.close();
    expect(server.requests.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /mcp",
      "POST /message?sessionId=s1",
    ]);
    for (const request of server.requests) expect(request.headers["x-tenant"]).toBe("tenant-b");
    expect(server.requests[0]?.headers.accept).toBe("text/event-stream");
  });

  it("redacts credentials a server echoes in its answer to a POST", async () => {
    const server = await faultServer((request) =>
      request.method === "GET"
        ? {
            kind: "chunks",
            contentType: "text/event-stream",
            chunks: ["event: endpoint\ndata: /message\n\n"],
            keepOpen: true,
          }
        : { kind: "status", status: 403, body: `forbidden for ${request.headers.authorization ?? ""}` },
    );
    const logger = recordingLogger();
    const transport = createSseTransport(
      { url: server.url, headers: { Authorization: "Bearer sse-secret-6620" } },
      { logger },
    );
    await transport.start();
    const error = await rejectionOf(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" }));
    await transport.close();
    const failure = expectHttpError(error, "AUTH_FAILED");
    expect(failure.status).toBe(403);
    expect(failure.message).toContain("forbidden for [REDACTED]");
    const texts = [...errorTexts(error), ...logger.lines.map((line) => JSON.stringify(line))];
    expect(texts.filter((text) => text.includes("sse-secret-6620"))).toEqual([]);
  });

  it("stops retrying the event stream after a failed start", async () => {
    const server = await faultServer({ kind: "status", status: 500 });
    const { error } = await failingConnect(createSseTransport({ url: server.url }));
    expectHttpError(error, "SERVER_ERROR");
    const count = server.requests.length;
    // The SSE library's default retry is 3 s; it must not fire.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(server.requests.length).toBe(count);
  });
});

describe("fallbackToSse with a programmable server", () => {
  it("tries SSE after a 405 on the POST and surfaces the SSE failure, sending headers on both", async () => {
    const server = await faultServer((request) =>
      request.method === "POST" ? { kind: "status", status: 405 } : { kind: "status", status: 500 },
    );
    const transport = createStreamableHttpTransport(
      { url: server.url, headers: { "X-Tenant": "t" } },
      { fallbackToSse: true },
    );
    const { error, reported } = await failingConnect(transport);
    const failure = expectHttpError(error, "SERVER_ERROR");
    expect(failure.transport).toBe("sse");
    expect(server.requests.map((request) => request.method)).toEqual(["POST", "GET"]);
    for (const request of server.requests) expect(request.headers["x-tenant"]).toBe("t");
    // The 405 that triggered the fallback is not reported as an error.
    expect(reported.map((e) => (HttpTransportError.isInstance(e) ? e.code : e.name))).toEqual(["SERVER_ERROR"]);
  });

  it.each([401, 403, 500])("does not fall back on HTTP %i", async (status) => {
    const server = await faultServer({ kind: "status", status });
    const { error } = await failingConnect(createStreamableHttpTransport({ url: server.url }, { fallbackToSse: true }));
    expect((error as HttpTransportError).status).toBe(status);
    expect(server.requests.map((request) => request.method)).toEqual(["POST"]);
  });

  it("connects the fallback to sseUrl when given", async () => {
    const server = await faultServer({ kind: "status", status: 404 });
    const sse = await startEverythingHttp({ mode: "sse" });
    try {
      const transport = createStreamableHttpTransport({ url: server.url }, { fallbackToSse: true, sseUrl: sse.url });
      const client = newClient();
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      await client.close();
      expect(server.requests.map((request) => request.method)).toEqual(["POST"]);
    } finally {
      await sse.stop();
    }
    await expectNoLeakedProcesses();
  });
});

describe("maxMessageBytes on JSON responses", () => {
  const bigResult = (id: unknown) => JSON.stringify({ jsonrpc: "2.0", id, result: { padding: "z".repeat(50_000) } });

  it("refuses a body whose Content-Length exceeds the limit", async () => {
    const server = await faultServer((request) => ({
      kind: "status",
      status: 200,
      body: JSON.parse(bigResult((JSON.parse(request.body) as { id: unknown }).id)) as Record<string, unknown>,
    }));
    const { error } = await failingConnect(
      createStreamableHttpTransport({ url: server.url }, { maxMessageBytes: 10_000 }),
    );
    const failure = expectHttpError(error, "MESSAGE_TOO_LARGE");
    expect(failure.message).toContain("Content-Length of");
    expect(failure.message).toContain("maxMessageBytes (10000 bytes)");
  });

  it("refuses a chunked body without Content-Length once it grows past the limit", async () => {
    const server = await faultServer((request) => {
      const body = bigResult((JSON.parse(request.body) as { id: unknown }).id);
      return { kind: "chunks", contentType: "application/json", chunks: [body.slice(0, 30_000), body.slice(30_000)] };
    });
    const { error } = await failingConnect(
      createStreamableHttpTransport({ url: server.url }, { maxMessageBytes: 10_000 }),
    );
    expect(expectHttpError(error, "MESSAGE_TOO_LARGE").message).toContain("the body exceeds maxMessageBytes");
  });

  it("accepts the same response under a larger limit", async () => {
    const server = await faultServer((request) => {
      const body = bigResult((JSON.parse(request.body) as { id: unknown }).id);
      return { kind: "chunks", contentType: "application/json", chunks: [body] };
    });
    // The fake result is no valid initialize result, so the client fails later, not on size.
    const { error } = await failingConnect(
      createStreamableHttpTransport({ url: server.url }, { maxMessageBytes: 100_000 }),
    );
    expect(HttpTransportError.isInstance(error) && error.code === "MESSAGE_TOO_LARGE").toBe(false);
  });
});

describe("config", () => {
  it("rejects a URL that does not parse without echoing it", () => {
    let error: unknown;
    try {
      createStreamableHttpTransport({ url: "not a url secret-123" });
    } catch (caught) {
      error = caught;
    }
    expect(expectHttpError(error, "INVALID_CONFIG").message).not.toContain("secret-123");
  });

  it("rejects a non-HTTP scheme", () => {
    expect(() => createSseTransport({ url: "ftp://127.0.0.1/mcp" })).toThrow(/must use http: or https:/);
  });

  it("rejects a non-positive maxMessageBytes", () => {
    expect(() => createSseTransport({ url: "http://127.0.0.1/mcp" }, { maxMessageBytes: 0 })).toThrow(
      /maxMessageBytes must be a positive/,
    );
  });
});
