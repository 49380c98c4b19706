import { describe, expect, it } from "vitest";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import { httpGatewayForFile } from "./fixtures.js";

// Hostile or malformed 2026-07-28 requests, sent by hand with fetch: each gets a clear answer and
// the gateway goes on serving.
const running = httpGatewayForFile({ upstreams: ["everything"] });

function envelope(version = "2026-07-28"): Record<string, unknown> {
  return {
    [PROTOCOL_VERSION_META_KEY]: version,
    [CLIENT_INFO_META_KEY]: { name: "by-hand", version: "1" },
    [CLIENT_CAPABILITIES_META_KEY]: {},
  };
}

function post(
  body: { jsonrpc: "2.0"; id: number; method: string; params: { name?: string } & Record<string, unknown> },
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  json: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: { code?: string } } };
}> {
  return fetch(running.http.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      // The 2026-07-28 transport mirrors the method (and a tool's name) into headers a proxy can route on.
      "mcp-method": body.method,
      ...(typeof body.params.name === "string" ? { "mcp-name": body.params.name } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, json: (await response.json()) as never }));
}

describe("2026-07-28 requests by hand", () => {
  it("answers a well-formed tools/list without a session", async () => {
    const { status, json } = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } });
    expect(status).toBe(200);
    expect(JSON.stringify(json.result)).toContain("echo");
  });

  it("answers a revision it does not serve with the unsupported-version error", async () => {
    const { json } = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope("2099-01-01") } },
      { "mcp-protocol-version": "2099-01-01" },
    );
    expect(json.error?.code).toBe(-32022);
  });

  it("refuses a body that is not JSON-typed with 415 and a classified code", async () => {
    const { status, json } = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: envelope() } },
      { "content-type": "text/plain" },
    );
    expect(status).toBe(415);
    expect(json.error?.data?.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("refuses a foreign Origin before anything is served", async () => {
    const { status, json } = await post(
      { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: envelope() } },
      { origin: "https://evil.example" },
    );
    expect(status).toBe(403);
    expect(json.error?.data?.code).toBe("FORBIDDEN_ORIGIN");
  });

  it("answers an unknown method with method-not-found and goes on serving", async () => {
    const { json } = await post({ jsonrpc: "2.0", id: 5, method: "nothing/here", params: { _meta: envelope() } });
    expect(json.error?.code).toBe(-32601);
    const again = await post({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "still here" }, _meta: envelope() },
    });
    expect(JSON.stringify(again.json.result)).toContain("still here");
  });
});
