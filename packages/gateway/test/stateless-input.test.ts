import { describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { LOG_LEVEL_META_KEY } from "@modelcontextprotocol/server";
import { CLI_BIN, httpGatewayForFile } from "./fixtures.js";
import { gatewayEndpoints, SERVE_CONNECT_TIMEOUT_MS } from "./gateway-endpoints.js";
import { callToolByHand, questionOf, type ModernAnswer } from "./modern-by-hand.js";

// An upstream's elicitation and sampling (server-everything's trigger-* tools, a 2025-era server
// over a real stdio pipe) passed on to 2026-07-28 clients as `input_required`, answered in the
// client's retry: the official v2 client and our adapter on engine-2026, over HTTP and over stdio
// (`mcp-tool-adapter serve`); and by hand, the hostile retries. One upstream: names have no prefix.
const running = httpGatewayForFile({ upstreams: ["everything"], gateway: { inputTimeoutMs: 1_500 } });

const ELICIT_TOOL = "trigger-elicitation-request";
const SAMPLE_TOOL = "trigger-sampling-request";
const serveArgs = (): string[] => [CLI_BIN, "serve", "--config", running.upstreams.configFile];

/** The v2 client pinned to 2026-07-28, answering elicitation and sampling when `answers` says so. */
function v2Client(answers: { elicitation?: boolean; sampling?: boolean }): Client {
  const client = new Client(
    { name: "v2-input", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: {
        ...(answers.elicitation === true ? { elicitation: { form: {} } } : {}),
        ...(answers.sampling === true ? { sampling: {} } : {}),
      },
    },
  );
  if (answers.elicitation === true) {
    client.setRequestHandler("elicitation/create", () => ({
      action: "accept",
      content: { name: "Ada Lovelace", check: true, email: "ada@example.com" },
    }));
  }
  if (answers.sampling === true) {
    client.setRequestHandler("sampling/createMessage", (request) => ({
      role: "assistant",
      model: "stub-model-of-the-test-client",
      content: { type: "text", text: `sampled: ${JSON.stringify(request.params.messages[0]?.content)}` },
    }));
  }
  return client;
}

const { v2Transports: transports, adapterConfigs } = gatewayEndpoints(() => running.http.url, serveArgs);

describe.each(transports)("the v2 client on 2026-07-28 over $label", ({ make }) => {
  it(
    "answers an upstream's elicitation through input_required and gets the call's result",
    { timeout: 120_000 },
    async () => {
      const client = v2Client({ elicitation: true, sampling: true });
      await client.connect(make());
      try {
        expect(client.getProtocolEra()).toBe("modern");
        const elicited = await client.callTool({ name: ELICIT_TOOL, arguments: {} });
        expect(elicited.isError).not.toBe(true);
        expect(JSON.stringify(elicited.content)).toContain("Ada Lovelace");
        const sampled = await client.callTool({
          name: SAMPLE_TOOL,
          arguments: { prompt: "two words", maxTokens: 10 },
        });
        expect(sampled.isError).not.toBe(true);
        expect(JSON.stringify(sampled.content)).toContain("stub-model-of-the-test-client");
      } finally {
        await client.close();
      }
    },
  );

  it(
    "refuses the upstream's elicitation clearly when the client did not declare it",
    { timeout: 120_000 },
    async () => {
      const client = v2Client({});
      await client.connect(make());
      try {
        const result = await client.callTool({ name: ELICIT_TOOL, arguments: {} });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toMatch(/did not declare the elicitation capability/);
      } finally {
        await client.close();
      }
    },
  );
});

describe("our adapter on engine-2026", () => {
  it.each(adapterConfigs)("answers elicitation and sampling over $label", { timeout: 120_000 }, async ({ config }) => {
    const adapter = new MCPToolAdapter(
      { name: "gateway", protocol: "2026-07-28", ...config() },
      {
        engine: createEngine2026(),
        connectTimeoutMs: SERVE_CONNECT_TIMEOUT_MS,
        onElicitation: () => Promise.resolve({ action: "accept", content: { name: "Grace Hopper", check: true } }),
        onSampling: () =>
          Promise.resolve({
            role: "assistant",
            model: "adapter-stub-model",
            content: { type: "text", text: "sampled by the adapter" },
          }),
      },
    );
    await adapter.connect();
    try {
      expect(adapter.protocolEra).toBe("2026-07-28");
      await adapter.discoverTools();
      const elicited = await adapter.invoke(ELICIT_TOOL, {});
      expect(elicited.success, elicited.error ?? "").toBe(true);
      expect(JSON.stringify(elicited.data)).toContain("Grace Hopper");
      const sampled = await adapter.invoke(SAMPLE_TOOL, { prompt: "hi", maxTokens: 5 });
      expect(sampled.success, sampled.error ?? "").toBe(true);
      expect(JSON.stringify(sampled.data)).toContain("adapter-stub-model");
    } finally {
      await adapter.disconnect();
    }
  });
});

describe("upstream logs on 2026-07-28", () => {
  it("go out on the call's own request, at the level its _meta names", { timeout: 120_000 }, async () => {
    const client = v2Client({});
    const logs: { level: string; logger?: string }[] = [];
    client.setNotificationHandler("notifications/message", (notification) => {
      logs.push({ level: notification.params.level, logger: notification.params.logger });
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.http.url)));
    try {
      // server-everything logs every 5 s once asked to; a 12 s call hears some of it.
      await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
      try {
        const result = await client.callTool({
          name: "trigger-long-running-operation",
          arguments: { duration: 12, steps: 2 },
          _meta: { [LOG_LEVEL_META_KEY]: "debug" },
        });
        expect(result.isError).not.toBe(true);
      } finally {
        await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
      }
      expect(logs.length).toBeGreaterThan(0);
      expect(logs[0]?.logger).toMatch(/^everything/);
    } finally {
      await client.close();
    }
  });
});

describe("retries by hand", () => {
  // Written by hand (modern-by-hand.ts): retries no real client would send.
  const callTool = (extra: Record<string, unknown> = {}, name = ELICIT_TOOL): Promise<ModernAnswer> =>
    callToolByHand({ url: running.http.url, name, extra });
  const ask = async (): Promise<{ state: string; key: string }> => questionOf(await callTool());

  it("refuses a forged requestState with a classified error, and goes on", { timeout: 60_000 }, async () => {
    const forged = await callTool({ requestState: "forged-state", inputResponses: {} });
    expect(forged.error?.code).toBe(-32602);
    expect(forged.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
    expect(forged.error?.message).toMatch(/same copy/);
    const echo = await callTool({ arguments: { message: "still here" } }, "echo");
    expect(JSON.stringify(echo.result)).toContain("still here");
  });

  it(
    "refuses an answer of the wrong shape, then takes the right one; the used state is stale",
    { timeout: 60_000 },
    async () => {
      const { state, key } = await ask();
      const wrong = await callTool({
        requestState: state,
        inputResponses: {
          [key]: { role: "assistant", model: "m", content: { type: "text", text: "not an elicitation" } },
        },
      });
      expect(wrong.error?.code).toBe(-32602);
      expect(wrong.error?.data?.code).toBe("INPUT_RESPONSE_INVALID");
      expect(wrong.error?.message).toContain(key);
      const other = await callTool({ requestState: state, inputResponses: {} }, "echo");
      expect(other.error?.data?.code).toBe("REQUEST_STATE_MISMATCH");
      const right = await callTool({
        requestState: state,
        inputResponses: { [key]: { action: "accept", content: { name: "By Hand" } } },
      });
      expect(right.error).toBeUndefined();
      expect(JSON.stringify(right.result)).toContain("By Hand");
      const stale = await callTool({ requestState: state, inputResponses: {} });
      expect(stale.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
    },
  );

  it(
    "gives up a call nobody retries: the upstream gets cancel and the state goes stale",
    { timeout: 60_000 },
    async () => {
      const { state, key } = await ask();
      // inputTimeoutMs is 1.5 s here: well past it (and with no retry meanwhile, which would take
      // the call), the call was given up and its state is refused.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const late = await callTool({
        requestState: state,
        inputResponses: { [key]: { action: "accept", content: { name: "too late" } } },
      });
      expect(late.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
      const echo = await callTool({ arguments: { message: "after the timeout" } }, "echo");
      expect(JSON.stringify(echo.result)).toContain("after the timeout");
    },
  );
});
