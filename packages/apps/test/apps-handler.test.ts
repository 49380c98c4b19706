import { appsStdioServer, everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppsError, buildAppCsp, createAppsClient, type AppsClient } from "../src/index.js";
import { createAppsFetchHandler, createSandboxProxyFetchHandler, type AppsFetchHandler } from "../src/server/index.js";
import { connectServers } from "./fixtures/host.js";

// The server side over real adapters in one registry (published example servers over stdio, as an
// MCPServerSet holds them), driven through the package's own browser client with the handler as its fetch.
let closeServers: (() => Promise<void>) | undefined;
let handler: AppsFetchHandler;
let client: AppsClient;

const stdio = (launch: { command: string; args: string[] }) => () =>
  createStdioTransport({ command: launch.command, args: launch.args });

beforeAll(async () => {
  const servers = await connectServers([
    { name: "basic", transport: stdio(appsStdioServer("basic-vanillajs")) },
    { name: "monitor", transport: stdio(appsStdioServer("system-monitor")) },
    { name: "everything", transport: stdio(everythingStdioServer()) },
  ]);
  closeServers = servers.close;
  handler = createAppsFetchHandler({ servers: servers.source, basePath: "/api/apps/" });
  client = createAppsClient({
    baseUrl: "http://host.test/api/apps",
    fetch: (input, init) => handler(new Request(input, init)),
  });
}, 90_000);

afterAll(async () => {
  await closeServers?.();
}, 30_000);

describe("the apps handler", () => {
  it("lists every tool with its UI reference, app-only tools marked", async () => {
    const tools = await client.listTools();
    expect(tools.find((tool) => tool.name === "basic/get-time")).toMatchObject({
      server: "basic",
      ui: { resourceUri: "ui://get-time/mcp-app.html", visibility: ["model", "app"] },
    });
    expect(tools.find((tool) => tool.name === "monitor/poll-system-stats")?.ui?.visibility).toEqual(["app"]);
    expect(tools.filter((tool) => tool.server === "everything").every((tool) => tool.ui === undefined)).toBe(true);
  });

  it("serves a tool's UI, and refuses one without", async () => {
    const resource = await client.readUi("basic/get-time");
    expect(resource).toMatchObject({ tool: "basic/get-time", uri: "ui://get-time/mcp-app.html" });
    expect(resource.html).toContain("get-time-btn");
    await expect(client.readUi("everything/echo")).rejects.toMatchObject({ code: "UI_UNAVAILABLE" });
    await expect(client.readUi("nope/nothing")).rejects.toMatchObject({ code: "TOOL_NOT_FOUND" });
  });

  it("calls tools for the host and for an app of the same server", async () => {
    const result = await client.callTool({ name: "basic/get-time" });
    expect(typeof (result.structuredContent as { time?: unknown }).time).toBe("string");
    const echoed = await client.callTool({ name: "everything/echo", arguments: { message: "hi" } });
    expect(JSON.stringify(echoed.content)).toContain("hi");
    const polled = await client.callTool({ name: "monitor/poll-system-stats", app: "monitor/get-system-info" });
    expect(polled.isError).not.toBe(true);
  });

  it("refuses an app's call to another server, a host call to an app-only tool, and bad requests", async () => {
    const refused = (request: Parameters<AppsClient["callTool"]>[0]) =>
      expect(client.callTool(request)).rejects.toThrow(AppsError);
    await refused({ name: "everything/echo", arguments: { message: "x" }, app: "basic/get-time" });
    await expect(client.callTool({ name: "everything/echo", app: "basic/get-time" })).rejects.toThrow(/another server/);
    await expect(client.callTool({ name: "everything/echo", app: "basic/get-time" })).rejects.toMatchObject({
      code: "CALL_REFUSED",
    });
    await expect(client.callTool({ name: "monitor/poll-system-stats" })).rejects.toMatchObject({
      code: "CALL_REFUSED",
    });
    await expect(client.callTool({ name: "basic/get-time", app: "everything/echo" })).rejects.toMatchObject({
      code: "CALL_REFUSED",
    });
    const bad = await handler(new Request("http://host.test/api/apps/call", { method: "POST", body: "{not json" }));
    expect(bad.status).toBe(400);
    const noName = await handler(new Request("http://host.test/api/apps/call", { method: "POST", body: "{}" }));
    expect(await noName.json()).toEqual({
      error: { code: "BAD_REQUEST", message: 'the call needs a "name" (string)' },
    });
    const elsewhere = await handler(new Request("http://host.test/other"));
    expect(elsewhere.status).toBe(404);
  });

  it("reports a failed tool as an error result, not a failed request", async () => {
    const result = await client.callTool({ name: "everything/echo", arguments: { message: 42 } });
    expect(result.isError).toBe(true);
  });

  it("turns an unreachable handler into AppsError CHANNEL_FAILED", async () => {
    const offline = createAppsClient({
      baseUrl: "http://host.test/api/apps",
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    await expect(offline.listTools()).rejects.toMatchObject({ code: "CHANNEL_FAILED" });
  });
});

describe("the sandbox proxy", () => {
  it("serves the proxy page under the app's declared CSP, embeddable by the host origins only", async () => {
    const sandbox = createSandboxProxyFetchHandler({ hostOrigins: ["https://app.example.com"] });
    const csp = Buffer.from(JSON.stringify({ connectDomains: ["https://api.example.com", "'unsafe-eval'"] })).toString(
      "base64url",
    );
    const response = await sandbox(new Request(`https://sandbox.example.net/sandbox.html?csp=${csp}`));
    const policy = response.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("connect-src https://api.example.com;");
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("frame-ancestors https://app.example.com");
    expect(await response.text()).toContain("ui/notifications/sandbox-proxy-ready");
    const strictest = await sandbox(new Request("https://sandbox.example.net/?csp=%%%"));
    expect(strictest.headers.get("content-security-policy")).toContain("connect-src 'none'");
  });

  it("refuses host origins that are not plain origins", () => {
    expect(() => createSandboxProxyFetchHandler({ hostOrigins: [] })).toThrow(/hostOrigins/);
    expect(() => createSandboxProxyFetchHandler({ hostOrigins: ["https://a.example; script-src *"] })).toThrow(
      TypeError,
    );
  });

  it("builds a policy with nothing but what the app declared", () => {
    expect(buildAppCsp(undefined)).toContain("connect-src 'none'; frame-src 'none'; base-uri 'none'");
    expect(
      buildAppCsp({ resourceDomains: ["https://cdn.example.com"], frameDomains: ["https://*.video.example"] }),
    ).toMatch(/script-src 'unsafe-inline' blob: https:\/\/cdn\.example\.com;.*frame-src https:\/\/\*\.video\.example/);
  });
});
