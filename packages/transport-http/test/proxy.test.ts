import {
  startEverythingHttp,
  startFaultHttpServer,
  startHttpProxy,
  type EverythingHttpServer,
  type HttpProxyServer,
} from "@mcp-tool-adapter/test-servers";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getGlobalDispatcher, ProxyAgent, setGlobalDispatcher } from "undici";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createStreamableHttpTransport, type StreamableHttpTransportOptions } from "../src/index.js";
import { createGuardedFetch } from "../src/guarded-fetch.js";
import { connectClient } from "./helpers.js";

// Users behind a corporate proxy: the transport's requests go through the proxy they configured,
// shown by a real forward proxy on 127.0.0.1 that records what it carried. The proxy variables
// are injected through the `env` option, so this process's environment is never changed.

let everything: EverythingHttpServer;
let proxy: HttpProxyServer;

beforeAll(async () => {
  everything = await startEverythingHttp({ mode: "streamableHttp" });
});
afterAll(async () => {
  await everything.stop();
});
beforeEach(async () => {
  proxy = await startHttpProxy();
});
afterEach(async () => {
  await proxy.close();
});

/** Connects, calls echo and closes; the text echo answered with. */
async function echoThrough(options: StreamableHttpTransportOptions): Promise<string> {
  const client = await connectClient(createStreamableHttpTransport({ url: everything.url }, options));
  try {
    const result = (await client.callTool({ name: "echo", arguments: { message: "via the proxy" } })) as CallToolResult;
    return result.content.map((item) => (item.type === "text" ? item.text : "")).join("");
  } finally {
    await client.close();
  }
}

/** server-everything's host:port, as a CONNECT names it. */
const targetAuthority = (): string => new URL(everything.url).host;

describe("a proxy in the environment", () => {
  it("tunnels every request through HTTP_PROXY (CONNECT to the server)", async () => {
    expect(await echoThrough({ env: { HTTP_PROXY: proxy.url } })).toContain("via the proxy");
    expect(proxy.proxied.length).toBeGreaterThan(0);
    expect(proxy.proxied.every((entry) => entry.kind === "connect" && entry.target === targetAuthority())).toBe(true);
  });

  it("reads the lower-case form first, as curl does, and sends https_proxy's credentials to it", async () => {
    const withCredentials = proxy.url.replace("http://", "http://user:pass@");
    expect(
      await echoThrough({
        env: { https_proxy: "http://127.0.0.1:9/", http_proxy: withCredentials, HTTP_PROXY: "http://127.0.0.1:9/" },
      }),
    ).toContain("via the proxy");
    expect(proxy.proxied.length).toBeGreaterThan(0);
    expect(proxy.proxied[0]?.proxyAuthorization).toBe(`Basic ${Buffer.from("user:pass").toString("base64")}`);
  });

  it.each([
    ["the host among others", () => "example.com, 127.0.0.1"],
    ["host and port", () => targetAuthority()],
    ["only a wildcard", () => "*"],
  ])("goes direct when NO_PROXY names %s", async (_name, noProxy) => {
    expect(await echoThrough({ env: { HTTP_PROXY: proxy.url, NO_PROXY: noProxy() } })).toContain("via the proxy");
    expect(proxy.proxied).toEqual([]);
  });

  it("still uses the proxy when NO_PROXY names only other hosts or ports", async () => {
    expect(await echoThrough({ env: { HTTP_PROXY: proxy.url, no_proxy: "localhost,127.0.0.1:1" } })).toContain(
      "via the proxy",
    );
    expect(proxy.proxied.length).toBeGreaterThan(0);
  });

  it("sends the requests the global fetch makes (a redirect to follow, OAuth discovery) through it too", async () => {
    const server = await startFaultHttpServer((request) =>
      request.url === "/mcp"
        ? { kind: "status", status: 307, headers: { location: "/moved" } }
        : { kind: "status", status: 200, body: { moved: true } },
    );
    try {
      const guard = createGuardedFetch({
        env: { HTTP_PROXY: proxy.url },
        transport: "streamable-http",
        url: server.url,
        maxMessageBytes: 1_000_000,
        secrets: new Set(),
        onOversizedEvent: () => undefined,
      });
      const followed = await guard.fetch(server.url, { method: "GET" });
      expect(await followed.json()).toEqual({ moved: true });
      expect(server.requests.map((request) => request.url)).toEqual(["/mcp", "/moved"]);
      expect(proxy.proxied.length).toBeGreaterThan(0);
      expect(proxy.proxied.every((entry) => entry.target === `127.0.0.1:${server.port}`)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("goes direct without proxy variables", async () => {
    expect(await echoThrough({ env: {} })).toContain("via the proxy");
    expect(proxy.proxied).toEqual([]);
  });
});

describe("a dispatcher the user chose", () => {
  it("sends through a ProxyAgent set as undici's global dispatcher", async () => {
    const previous = getGlobalDispatcher();
    const agent = new ProxyAgent(proxy.url);
    setGlobalDispatcher(agent);
    try {
      expect(await echoThrough({ env: {} })).toContain("via the proxy");
    } finally {
      setGlobalDispatcher(previous);
      await agent.close();
    }
    expect(proxy.proxied.length).toBeGreaterThan(0);
    expect(proxy.proxied.every((entry) => entry.kind === "connect")).toBe(true);
  });

  it("sends through the dispatcher option, before the environment: absolute-form requests without a tunnel", async () => {
    const agent = new ProxyAgent({ uri: proxy.url, proxyTunnel: false });
    try {
      expect(await echoThrough({ dispatcher: agent, env: { HTTP_PROXY: "http://127.0.0.1:9/" } })).toContain(
        "via the proxy",
      );
    } finally {
      await agent.close();
    }
    expect(proxy.proxied.length).toBeGreaterThan(0);
    expect(proxy.proxied.every((entry) => entry.kind === "forward" && entry.target === everything.url)).toBe(true);
    expect(proxy.proxied.map((entry) => entry.method)).toContain("POST");
  });
});
