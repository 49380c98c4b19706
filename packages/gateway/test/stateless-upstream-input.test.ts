import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { startV2HttpServer, type V2HttpServer } from "@mcp-tool-adapter/test-servers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createGateway, GatewayError, type GatewayHttpServer } from "../src/index.js";
import { CLI_BIN, GATEWAY_DIR, serveOverHttp, type ServedOverHttp } from "./fixtures.js";
import { callToolByHand, questionOf } from "./modern-by-hand.js";

// An upstream that itself speaks 2026-07-28 (the official v2 SDK's server, modern only, over
// streamable HTTP; the gateway reaches it through engine-2026) answers a call with input_required.
// The gateway passes it on with a sealed requestState, so the client's retry can reach another
// copy: copies one and two share a requestStateKey, copy three has its own.
const SHARED_KEY = "a-secret-shared-by-copies-one-and-two-0123456789";
let upstream: V2HttpServer;
const copies: ServedOverHttp[] = [];

async function copy(requestStateKey: string): Promise<GatewayHttpServer> {
  const served = await serveOverHttp({
    servers: { v2: { transport: "streamable-http", url: upstream.url, protocol: "2026-07-28" } },
    serverSet: { engine: createEngine2026() },
    requestStateKey,
  });
  copies.push(served);
  return served.http;
}

let one: GatewayHttpServer;
let two: GatewayHttpServer;
let three: GatewayHttpServer;

beforeAll(async () => {
  upstream = await startV2HttpServer({ modernOnly: true });
  one = await copy(SHARED_KEY);
  two = await copy(SHARED_KEY);
  three = await copy("another-secret-that-copy-three-alone-holds-9876543210");
}, 120_000);

afterAll(async () => {
  for (const served of copies.splice(0)) await served.close();
  await upstream.close();
}, 60_000);

const ADA = { who: { action: "accept", content: { name: "Ada" } } };

describe("a 2026-07-28 upstream's input_required, passed on statelessly", () => {
  it("is asked on one copy and answered through another", { timeout: 60_000 }, async () => {
    const first = await callToolByHand({ url: one.url, name: "ask" });
    const { state, key } = questionOf(first);
    expect(key).toBe("who");
    // Sealed, not a call waiting in copy one.
    expect(state.startsWith("mtag1.")).toBe(true);
    expect(first.result?.inputRequests?.["who"]).toMatchObject({
      method: "elicitation/create",
      params: { message: "Who are you?" },
    });
    const answered = await callToolByHand({
      url: two.url,
      name: "ask",
      extra: { requestState: state, inputResponses: ADA },
    });
    expect(answered.error).toBeUndefined();
    expect(answered.result?.["content"]).toEqual([{ type: "text", text: "hello Ada" }]);
    // The state holds no call in any copy: the same retry again is answered again by the upstream.
    const again = await callToolByHand({
      url: one.url,
      name: "ask",
      extra: { requestState: state, inputResponses: ADA },
    });
    expect(again.result?.["content"]).toEqual([{ type: "text", text: "hello Ada" }]);
  });

  it(
    "refuses a state sealed with another key, altered or forged, and one of another tool",
    { timeout: 60_000 },
    async () => {
      const { state } = questionOf(await callToolByHand({ url: one.url, name: "ask" }));
      const retry = (url: string, requestState: string, name = "ask"): ReturnType<typeof callToolByHand> =>
        callToolByHand({ url, name, extra: { requestState, inputResponses: ADA } });

      const elsewhere = await retry(three.url, state);
      expect(elsewhere.error?.code).toBe(-32602);
      expect(elsewhere.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
      expect(elsewhere.error?.message).toMatch(/requestStateKey/);

      // One character of the sealed bytes changed (not the last, whose low bits may be padding).
      const at = 20;
      const altered = await retry(two.url, state.slice(0, at) + (state[at] === "A" ? "B" : "A") + state.slice(at + 1));
      expect(altered.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
      const forged = await retry(two.url, "mtag1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
      expect(forged.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");

      const otherTool = await retry(two.url, state, "echo");
      expect(otherTool.error?.data?.code).toBe("REQUEST_STATE_MISMATCH");

      const echo = await callToolByHand({ url: two.url, name: "echo", arguments: { text: "still serving" } });
      expect(echo.result?.["content"]).toEqual([{ type: "text", text: "echo: still serving" }]);
    },
  );

  it(
    "refuses the upstream's question when the client did not declare the capability",
    { timeout: 60_000 },
    async () => {
      const result = await callToolByHand({ url: one.url, name: "sample", capabilities: {} });
      expect(result.result?.["isError"]).toBe(true);
      expect(JSON.stringify(result.result)).toMatch(/did not declare the sampling capability/);
    },
  );

  it("serves the v2 client whose every request goes to the other copy", { timeout: 120_000 }, async () => {
    // A balancer in the client: each POST goes to the copy the last one did not.
    const landed: string[] = [];
    let turn = 0;
    const alternate = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const target = (turn++ % 2 === 0 ? one : two).url;
      if (init?.method === "POST" && typeof init.body === "string" && init.body.includes('"tools/call"')) {
        landed.push(target);
      }
      return fetch(target, init);
    };
    const client = new Client(
      { name: "v2-through-two-copies", version: "1.0.0" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      },
    );
    client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { name: "Grace" } }));
    client.setRequestHandler("sampling/createMessage", () => ({
      role: "assistant",
      model: "client-model",
      content: { type: "text", text: "hi from the client" },
    }));
    client.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///work/grace" }] }));
    await client.connect(new StreamableHTTPClientTransport(new URL(one.url), { fetch: alternate }));
    try {
      expect(client.getProtocolEra()).toBe("modern");
      const asked = await client.callTool({ name: "ask", arguments: {} });
      expect(asked.content).toEqual([{ type: "text", text: "hello Grace" }]);
      const sampled = await client.callTool({ name: "sample", arguments: {} });
      expect(sampled.content).toEqual([{ type: "text", text: "model said: hi from the client" }]);
      const rooted = await client.callTool({ name: "roots", arguments: {} });
      expect(rooted.content).toEqual([{ type: "text", text: "roots: file:///work/grace" }]);
    } finally {
      await client.close();
    }
    // Each call took two legs, the first on one copy and its retry on the other.
    expect(landed).toHaveLength(6);
    expect(new Set(landed)).toEqual(new Set([one.url, two.url]));
    for (let leg = 0; leg < landed.length; leg += 2) expect(landed[leg]).not.toBe(landed[leg + 1]);
  });

  it("serves our adapter on engine-2026, whose handlers answer", { timeout: 120_000 }, async () => {
    const adapter = new MCPToolAdapter(
      { name: "gateway", transport: "streamable-http", url: two.url, protocol: "2026-07-28" },
      {
        engine: createEngine2026(),
        onElicitation: () => ({ action: "accept", content: { name: "Barbara" } }),
        roots: [{ uri: "file:///work/barbara" }],
      },
    );
    await adapter.connect();
    try {
      const asked = await adapter.invoke("ask", {});
      expect(asked.success, asked.error ?? "").toBe(true);
      expect(asked.data?.content).toEqual([{ type: "text", text: "hello Barbara" }]);
      const rooted = await adapter.invoke("roots", {});
      expect(rooted.data?.content).toEqual([{ type: "text", text: "roots: file:///work/barbara" }]);
    } finally {
      await adapter.disconnect();
    }
  });

  it("needs a requestStateKey of at least 32 characters", () => {
    expect(() => createGateway({ servers: {}, requestStateKey: "too short" })).toThrow(GatewayError);
  });

  it(
    "serve --request-state-key-env refuses a variable without a long enough secret before it connects anything",
    { timeout: 90_000 },
    () => {
      const served = spawnSync(
        process.execPath,
        [CLI_BIN, "serve", "--http", "--port", "0", "--request-state-key-env", "GATEWAY_STATE_KEY", "-s", "none"],
        { cwd: GATEWAY_DIR, env: { ...process.env, GATEWAY_STATE_KEY: "short" }, encoding: "utf8", timeout: 60_000 },
      );
      expect(served.status).toBe(2);
      expect(served.stderr).toMatch(/--request-state-key-env GATEWAY_STATE_KEY: .*at least 32 characters/);
    },
  );
});
