import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind } from "@opentelemetry/api";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createTempDirectory, elicitingStdioServer, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { createGateway, GatewayError, type GatewayOptions } from "../src/index.js";
import { freePort } from "./balancer.js";
import { serveOverHttp, type ServedOverHttp } from "./fixtures.js";
import { callToolByHand, questionOf, type ModernAnswer } from "./modern-by-hand.js";
import { captureSpans, isKind } from "./otel-capture.js";

// Gateway copies in this process, each on its own port and with its own upstream (the eliciting
// server, a 2025-era server over a real stdio pipe, whose question waits in the copy that asked),
// sharing one requestStateKey: copies one and two with their peerUrl, so that a retry landing on
// the other is passed on to the copy holding its call; copy three with none (as before: the retry
// must come back to it); copy four with a peerUrl that leads to copy one, not to itself.
const KEY = "the-secret-every-copy-shares-0123456789abcdef";
const ASK = "ask";
const ASK_THEN_WAIT = "ask-then-wait";

const holderSpans = captureSpans();
const forwarderSpans = new InMemorySpanExporter();
const forwarderProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(forwarderSpans)] });

let directory: TempDirectory;
let eventsFile: string;
const copies: ServedOverHttp[] = [];

const urlOf = (port: number): string => `http://127.0.0.1:${String(port)}/mcp`;
const copyUrl = (index: number): string => copies[index]?.http.url ?? "";

beforeAll(async () => {
  directory = await createTempDirectory("gateway-held-retries-");
  eventsFile = join(directory.path, "events.txt");
  await writeFile(eventsFile, "");
  const servers: GatewayOptions["servers"] = {
    eliciting: { transport: "stdio", ...elicitingStdioServer({ eventsFile }) },
  };
  const [one, two, three, four] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const start = (port: number, options: Partial<GatewayOptions>): Promise<ServedOverHttp> =>
    serveOverHttp({ servers, requestStateKey: KEY, ...options }, { port });
  copies.push(
    ...(await Promise.all([
      start(one, { peerUrl: urlOf(one), serverSet: { telemetry: { tracerProvider: holderSpans.tracerProvider } } }),
      start(two, { peerUrl: urlOf(two), serverSet: { telemetry: { tracerProvider: forwarderProvider } } }),
      start(three, {}),
      start(four, { peerUrl: urlOf(one) }),
    ])),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.map((copy) => copy.close()));
  await forwarderProvider.shutdown();
  await directory.remove();
}, 60_000);

const ask = async (copy: number, name = ASK): Promise<{ state: string; key: string }> =>
  questionOf(await callToolByHand({ url: copyUrl(copy), name }));

const answer = (copy: number, asked: { state: string; key: string }, who: string, name = ASK): Promise<ModernAnswer> =>
  callToolByHand({
    url: copyUrl(copy),
    name,
    extra: { requestState: asked.state, inputResponses: { [asked.key]: { action: "accept", content: { name: who } } } },
  });

async function eventsUntil(line: string): Promise<string[]> {
  for (;;) {
    const events = (await readFile(eventsFile, "utf8")).split("\n");
    if (events.includes(line)) return events;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a call waiting in one copy, retried through another", () => {
  it("is answered, whichever copy asked", { timeout: 60_000 }, async () => {
    const viaTwo = await answer(1, await ask(0), "Ada");
    expect(viaTwo.error).toBeUndefined();
    expect(JSON.stringify(viaTwo.result?.["content"])).toContain("Ada");
    const viaOne = await answer(0, await ask(1), "Grace");
    expect(viaOne.error).toBeUndefined();
    expect(JSON.stringify(viaOne.result?.["content"])).toContain("Grace");
  });

  it("takes the state once: a second retry of it is refused by the holder", { timeout: 60_000 }, async () => {
    const asked = await ask(0);
    expect((await answer(1, asked, "Once")).error).toBeUndefined();
    const again = await answer(1, asked, "Twice");
    expect(again.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
  });

  it("passes the client's cancel on to the holder and its upstream call", { timeout: 60_000 }, async () => {
    const asked = await ask(0, ASK_THEN_WAIT);
    const stop = new AbortController();
    const retry = fetch(copyUrl(1), {
      method: "POST",
      signal: stop.signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": ASK_THEN_WAIT,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: {
          name: ASK_THEN_WAIT,
          arguments: {},
          requestState: asked.state,
          inputResponses: { [asked.key]: { action: "accept", content: { name: "Cancelled Carl" } } },
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
            [CLIENT_INFO_META_KEY]: { name: "by-hand", version: "1" },
            [CLIENT_CAPABILITIES_META_KEY]: { elicitation: { form: {} } },
          },
        },
      }),
    }).then(
      (response) => response.text(),
      (error: unknown) => error,
    );
    // The answer reached the upstream through the holder (copy one); the tool now works, for a minute.
    await eventsUntil("answered Cancelled Carl");
    stop.abort();
    expect(await retry).toBeInstanceOf(Error);
    const events = await eventsUntil("cancelled");
    expect(events.filter((line) => line === "finished")).toEqual([]);
  });

  it("records the forwarding copy's span as the parent of the holder's", { timeout: 60_000 }, async () => {
    const asked = await ask(0);
    holderSpans.exporter.reset();
    forwarderSpans.reset();
    expect((await answer(1, asked, "Traced")).error).toBeUndefined();
    const forwarded = forwarderSpans
      .getFinishedSpans()
      .find((span) => span.name === `tools/call ${ASK}` && isKind(span, SpanKind.SERVER));
    const held = holderSpans.exporter
      .getFinishedSpans()
      .find((span) => span.name === `tools/call ${ASK}` && isKind(span, SpanKind.SERVER));
    expect(forwarded).toBeDefined();
    expect(held?.parentSpanContext?.spanId).toBe(forwarded?.spanContext().spanId);
    expect(held?.spanContext().traceId).toBe(forwarded?.spanContext().traceId);
  });
});

describe("retries that are refused", () => {
  it(
    "without peerUrl, as before: the retry must reach the copy that asked, and the error names the option",
    {
      timeout: 60_000,
    },
    async () => {
      const asked = await ask(2);
      expect(asked.state.startsWith("mtag1.")).toBe(false);
      const elsewhere = await answer(0, asked, "Nobody");
      expect(elsewhere.error?.code).toBe(-32602);
      expect(elsewhere.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
      expect(elsewhere.error?.message).toMatch(/same copy/);
      expect(elsewhere.error?.message).toContain("--peer-url");
      const home = await answer(2, asked, "Home");
      expect(JSON.stringify(home.result?.["content"])).toContain("Home");
    },
  );

  it("an altered or forged state", { timeout: 60_000 }, async () => {
    const asked = await ask(0);
    const middle = Math.floor(asked.state.length / 2);
    const flipped = asked.state[middle] === "A" ? "B" : "A";
    const altered = `${asked.state.slice(0, middle)}${flipped}${asked.state.slice(middle + 1)}`;
    for (const state of [altered, "mtag1.forged-by-a-client"]) {
      const refused = await answer(1, { state, key: asked.key }, "Mallory");
      expect(refused.error?.code).toBe(-32602);
      expect(refused.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");
    }
    // The call still waits for its real retry.
    expect(JSON.stringify((await answer(1, asked, "Real")).result?.["content"])).toContain("Real");
  });

  it("a hop mark a client wrote itself, and the call goes on", { timeout: 60_000 }, async () => {
    const asked = await ask(0);
    const answers = { [asked.key]: { action: "accept", content: { name: "Forger" } } };
    for (const copy of [0, 1]) {
      const response = await fetch(copyUrl(copy), {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": ASK,
          "mcp-gateway-forwarded": `${String(Date.now() + 30_000)}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: {
            name: ASK,
            arguments: {},
            requestState: asked.state,
            inputResponses: answers,
            _meta: { [PROTOCOL_VERSION_META_KEY]: "2026-07-28" },
          },
        }),
      });
      const refused = (await response.json()) as ModernAnswer;
      expect(refused.error?.data?.code).toBe("FORWARD_UNAUTHENTICATED");
    }
    expect(JSON.stringify((await answer(1, asked, "Honest")).result?.["content"])).toContain("Honest");
  });

  it("a peerUrl that leads to another copy: refused there, never passed on again", { timeout: 60_000 }, async () => {
    // Copy four names copy one's URL as its own: copy two passes the retry to copy one, which does
    // not hold the call and does not send it anywhere else.
    const asked = await ask(3);
    const lost = await answer(1, asked, "Lost");
    expect(lost.error?.data?.code).toBe("REQUEST_STATE_HOLDER_GONE");
    expect(lost.error?.message).toMatch(/restarted, or its peerUrl leads to another copy/);
  });
});

describe("peerUrl is checked with the other options", () => {
  const servers: GatewayOptions["servers"] = { eliciting: { transport: "stdio", ...elicitingStdioServer() } };

  it.each([
    ["not a URL", "copy-one:8931"],
    ["not http", "ftp://10.0.0.5/mcp"],
    ["with credentials", "http://user:pass@10.0.0.5:8931/mcp"],
    ["with a query", "http://10.0.0.5:8931/mcp?copy=1"],
  ])("refuses one %s", (_label, peerUrl) => {
    const refusal = refusalOf(() => createGateway({ servers, requestStateKey: KEY, peerUrl }));
    expect(refusal?.code).toBe("GATEWAY_OPTIONS_INVALID");
    expect(refusal?.message).toMatch(/peerUrl must be/);
  });

  it("needs the shared key", () => {
    const refusal = refusalOf(() => createGateway({ servers, peerUrl: "http://10.0.0.5:8931/mcp" }));
    expect(refusal?.code).toBe("GATEWAY_OPTIONS_INVALID");
    expect(refusal?.message).toMatch(/peerUrl needs requestStateKey/);
  });
});

function refusalOf(make: () => unknown): GatewayError | undefined {
  try {
    make();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  return undefined;
}
