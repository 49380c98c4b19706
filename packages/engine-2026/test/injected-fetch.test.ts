import { MCPConnectionError, MCPToolAdapter, type MCPServerConfig } from "@mcp-tool-adapter/adapter";
import {
  startEverythingHttp,
  startV2HttpServer,
  type EverythingHttpServer,
  type V2HttpServer,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026, createEngine2026Transport } from "../src/index.js";

// The engine's `fetch` option: every HTTP request of its default transports goes through it, on
// each era and transport, against real servers on 127.0.0.1 (server-everything for 2025 over
// streamable HTTP and SSE, the SDK v2 server for 2026-07-28). The recording fetch passes each
// request on to the global fetch.

let modern: V2HttpServer;
let everything: EverythingHttpServer;
let everythingSse: EverythingHttpServer;

beforeAll(async () => {
  modern = await startV2HttpServer({ modernOnly: true });
  // One after the other: two server processes starting at once on two loaded cores are slow.
  everything = await startEverythingHttp({ mode: "streamableHttp" });
  everythingSse = await startEverythingHttp({ mode: "sse" });
});
afterAll(async () => {
  await modern.close();
  await everything.stop();
  await everythingSse.stop();
});

/** A request the injected fetch saw: its HTTP method, URL, and the JSON-RPC method of its body if any. */
interface SeenRequest {
  method: string;
  url: string;
  rpc: string | undefined;
  authorization: string | undefined;
}

/** A fetch that records each request, then hands it on to the global fetch. */
function recordingFetch(): { fetch: typeof fetch; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const recording: typeof fetch = (input, init) => {
    const request = input instanceof Request ? input : undefined;
    seen.push({
      method: init?.method ?? request?.method ?? "GET",
      url: input instanceof URL ? input.href : typeof input === "string" ? input : input.url,
      rpc: rpcMethodOf(init?.body),
      authorization: new Headers(init?.headers).get("authorization") ?? undefined,
    });
    return globalThis.fetch(input, init);
  };
  return { fetch: recording, seen };
}

function rpcMethodOf(body: RequestInit["body"]): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const method = (JSON.parse(body) as { method?: unknown }).method;
    return typeof method === "string" ? method : undefined;
  } catch {
    return undefined;
  }
}

/** Which requests to `url` (any query) the fetch saw, as "METHOD rpc-method" (or just "METHOD"). */
function requestsTo(seen: readonly SeenRequest[], url: string): string[] {
  const path = new URL(url).pathname;
  return seen
    .filter((request) => new URL(request.url).pathname === path)
    .map((request) => (request.rpc === undefined ? request.method : `${request.method} ${request.rpc}`));
}

/** Connects with the injected fetch, calls `echo` and disconnects; the era the connection spoke. */
async function connectCallDisconnect(
  config: MCPServerConfig,
  injected: typeof fetch,
  args: Record<string, unknown>,
): Promise<string | undefined> {
  const adapter = new MCPToolAdapter(config, { engine: createEngine2026({ fetch: injected }) });
  try {
    await adapter.connect();
    expect(await adapter.invoke("echo", args)).toMatchObject({ success: true });
    return adapter.protocolEra;
  } finally {
    await adapter.disconnect();
  }
}

describe("engine-2026 with an injected fetch", () => {
  it('protocol "2026-07-28": the connection and a tool call go through it', async () => {
    const { fetch, seen } = recordingFetch();
    const era = await connectCallDisconnect(
      { name: "modern", transport: "streamable-http", url: modern.url, protocol: "2026-07-28" },
      fetch,
      { text: "through the injected fetch" },
    );
    expect(era).toBe("2026-07-28");
    const requests = requestsTo(seen, modern.url);
    expect(requests).toContain("POST server/discover");
    expect(requests).toContain("POST tools/call");
    // Every message the server read came through the injected fetch (the last, a cancel at the
    // disconnect, may still be on its way to the server's record).
    const posted = requests.filter((request) => request.startsWith("POST ")).map((request) => request.slice(5));
    expect(posted).toEqual(expect.arrayContaining(modern.methods));
  });

  it("with a step-up auth provider, the wrapper that reads scope challenges wraps the injected fetch", async () => {
    const { fetch, seen } = recordingFetch();
    const adapter = new MCPToolAdapter(
      { name: "modern", transport: "streamable-http", url: modern.url, protocol: "2026-07-28" },
      { engine: createEngine2026({ fetch }), authProvider: stepUpProvider("token-0123") },
    );
    try {
      await adapter.connect();
      expect(await adapter.invoke("echo", { text: "stepped" })).toMatchObject({ success: true });
    } finally {
      await adapter.disconnect();
    }
    const call = seen.find((request) => request.rpc === "tools/call");
    expect(call?.authorization).toBe("Bearer token-0123");
  });

  it("createEngine2026Transport takes the fetch too, for a host that decorates the default transport", async () => {
    const { fetch, seen } = recordingFetch();
    const engine = createEngine2026({
      transport: (server, authProvider) => createEngine2026Transport(server, authProvider, { fetch }),
    });
    const adapter = new MCPToolAdapter(
      { name: "everything", transport: "streamable-http", url: everything.url, protocol: "auto" },
      { engine },
    );
    try {
      await adapter.connect();
      expect(await adapter.invoke("echo", { message: "decorated" })).toMatchObject({ success: true });
    } finally {
      await adapter.disconnect();
    }
    const requests = requestsTo(seen, everything.url);
    expect(requests[0]).toBe("POST server/discover");
    expect(requests).toContain("POST tools/call");
  });

  it('protocol "2025" over streamable HTTP: transport-http\'s client uses it (connect, call, and the DELETE at disconnect)', async () => {
    const { fetch, seen } = recordingFetch();
    const era = await connectCallDisconnect(
      { name: "everything", transport: "streamable-http", url: everything.url, protocol: "2025" },
      fetch,
      { message: "through the injected fetch" },
    );
    expect(era).toBe("2025");
    const requests = requestsTo(seen, everything.url);
    expect(requests[0]).toBe("POST initialize");
    expect(requests).toContain("POST notifications/initialized");
    expect(requests).toContain("POST tools/call");
    expect(requests.at(-1)).toBe("DELETE");
  });

  it('protocol "auto" against a 2025 server: the probe and the 2025 connection go through it', async () => {
    const { fetch, seen } = recordingFetch();
    const era = await connectCallDisconnect(
      { name: "everything", transport: "streamable-http", url: everything.url, protocol: "auto" },
      fetch,
      { message: "through the injected fetch" },
    );
    expect(era).toBe("2025");
    const requests = requestsTo(seen, everything.url);
    expect(requests[0]).toBe("POST server/discover");
    expect(requests).toContain("POST initialize");
    expect(requests).toContain("POST tools/call");
    expect(requests.at(-1)).toBe("DELETE");
  });

  it("SSE: the event stream's GET and the POSTs go through it", async () => {
    const { fetch, seen } = recordingFetch();
    const era = await connectCallDisconnect(
      { name: "everything-sse", transport: "sse", url: everythingSse.url },
      fetch,
      { message: "through the injected fetch" },
    );
    expect(era).toBe("2025");
    expect(requestsTo(seen, everythingSse.url)).toContain("GET");
    const posts = seen.filter((request) => request.method === "POST").map((request) => request.rpc);
    expect(posts).toContain("initialize");
    expect(posts).toContain("tools/call");
  });
});

describe.each([
  { setting: '"2026-07-28"', config: (): MCPServerConfig => modernConfig("2026-07-28") },
  { setting: '"2025" over streamable HTTP', config: (): MCPServerConfig => everythingConfig("2025") },
  { setting: '"auto" over streamable HTTP', config: (): MCPServerConfig => everythingConfig("auto") },
  {
    setting: "SSE",
    config: (): MCPServerConfig => ({ name: "everything-sse", transport: "sse", url: everythingSse.url }),
  },
])("engine-2026 with an injected fetch that rejects, protocol $setting", ({ config }) => {
  it("connect() fails at once with MCPConnectionError naming the fetch's failure, and no rejection is left unhandled", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on("unhandledRejection", onUnhandled);
    let calls = 0;
    const refusing: typeof fetch = () => {
      calls += 1;
      return Promise.reject(new TypeError("fetch failed"));
    };
    const adapter = new MCPToolAdapter(config(), { engine: createEngine2026({ fetch: refusing }) });
    try {
      // Far below the connect timeout: a rejected fetch ends the connect, it does not wait it out.
      const started = performance.now();
      const error = await adapter.connect({ timeoutMs: 20_000 }).catch((caught: unknown) => caught);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(MCPConnectionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: "CONNECTION_FAILED" });
      expect(messagesOf(error).join("\n")).toContain("fetch failed");
      expect(calls).toBeGreaterThan(0);
      // Late rejections (a stream's, a close's) surface within a few turns of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      await adapter.disconnect();
    }
  });
});

function modernConfig(protocol: "2026-07-28"): MCPServerConfig {
  return { name: "modern", transport: "streamable-http", url: modern.url, protocol };
}

function everythingConfig(protocol: "2025" | "auto"): MCPServerConfig {
  return { name: "everything", transport: "streamable-http", url: everything.url, protocol };
}

/**
 * An SDK 1.x-shaped OAuth provider holding a token already, with the step-up half (core's
 * StepUpAuthProvider) that makes the transport read scope challenges from its fetch's responses.
 */
function stepUpProvider(accessToken: string): object {
  return {
    redirectUrl: "http://127.0.0.1:1/callback",
    clientMetadata: { redirect_uris: ["http://127.0.0.1:1/callback"], client_name: "injected-fetch test" },
    clientInformation: () => ({ client_id: "test-client" }),
    tokens: () => ({ access_token: accessToken, token_type: "Bearer" }),
    saveTokens: () => undefined,
    redirectToAuthorization: () => undefined,
    saveCodeVerifier: () => undefined,
    codeVerifier: () => "verifier",
    noteInsufficientScope: () => Promise.resolve(),
    takeFreshLogin: () => false,
  };
}

/** The messages of an error and its causes, outermost first. */
function messagesOf(error: unknown): string[] {
  const messages: string[] = [];
  for (let link = error, depth = 0; link instanceof Error && depth < 8; link = link.cause, depth += 1) {
    messages.push(link.message);
  }
  return messages;
}
