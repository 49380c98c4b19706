import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpanKind } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createTempDirectory, elicitingStdioServer, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { createGateway, GatewayError, type GatewayOptions } from "../src/index.js";
import { freePort } from "./balancer.js";
import { serveOverHttp, type ServedOverHttp } from "./fixtures.js";
import { callToolByHand, questionOf, type ModernAnswer } from "./modern-by-hand.js";
import { captureSpans, isKind } from "./otel-capture.js";
import { createRequestStateSeal } from "../src/request-state-seal.js";
import { ATTR_GONE_HOLDER, ATTR_GONE_HOLDER_REASON, RERUN_EVENT } from "../src/held-call-rerun.js";

// Gateway copies in this process, each on its own port and with its own upstream (the eliciting
// server, a 2025-era server over a real stdio pipe, whose question waits in the copy that asked),
// sharing one requestStateKey: copies one and two with their peerUrl, so that a retry landing on
// the other is passed on to the copy holding its call; copy three with none (as before: the retry
// must come back to it); copy four with a peerUrl that leads to copy one, not to itself; copies five
// and six with their own, closed while a call waits in each (holders that are gone). One call at a
// time waits in a copy: a stdio upstream's question is refused while two clients' calls run there.
const KEY = "the-secret-every-copy-shares-0123456789abcdef";
const ASK = "ask";
const ASK_THEN_WAIT = "ask-then-wait";
/** Annotated read-only (safe to repeat) and annotated as a write; both ask for a name and record each run. */
const LOOK_UP = "look-up";
const WRITE = "ask-then-write";

const holderSpans = captureSpans();
const forwarderSpans = new InMemorySpanExporter();
const forwarderProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(forwarderSpans)] });

let directory: TempDirectory;
let eventsFile: string;
const copies: ServedOverHttp[] = [];
/** Copies a test closed (afterAll closes the others). */
const closed = new Set<ServedOverHttp>();

const urlOf = (port: number): string => `http://127.0.0.1:${String(port)}/mcp`;
const copyUrl = (index: number): string => copies[index]?.http.url ?? "";

beforeAll(async () => {
  directory = await createTempDirectory("gateway-held-retries-");
  eventsFile = join(directory.path, "events.txt");
  await writeFile(eventsFile, "");
  const servers: GatewayOptions["servers"] = {
    eliciting: { transport: "stdio", ...elicitingStdioServer({ eventsFile }) },
  };
  const [one, two, three, four, five, six] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const start = (port: number, options: Partial<GatewayOptions>): Promise<ServedOverHttp> =>
    serveOverHttp({ servers, requestStateKey: KEY, ...options }, { port });
  copies.push(
    ...(await Promise.all([
      start(one, { peerUrl: urlOf(one), serverSet: { telemetry: { tracerProvider: holderSpans.tracerProvider } } }),
      start(two, { peerUrl: urlOf(two), serverSet: { telemetry: { tracerProvider: forwarderProvider } } }),
      start(three, {}),
      start(four, { peerUrl: urlOf(one) }),
      start(five, { peerUrl: urlOf(five) }),
      start(six, { peerUrl: urlOf(six) }),
    ])),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(copies.filter((copy) => !closed.has(copy)).map((copy) => copy.close()));
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
    const retry = callToolByHand({
      url: copyUrl(1),
      name: ASK_THEN_WAIT,
      signal: stop.signal,
      extra: {
        requestState: asked.state,
        inputResponses: { [asked.key]: { action: "accept", content: { name: "Cancelled Carl" } } },
      },
    }).then(
      (answer) => answer,
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

/** What the state says, opened with the copies' key as a copy opens it. */
const opened = (state: string): ReturnType<ReturnType<typeof createRequestStateSeal>["open"]> =>
  createRequestStateSeal({ key: KEY, lifetimeMs: 60_000 }).open(state);

const runsOf = async (tool: string): Promise<string[]> =>
  (await readFile(eventsFile, "utf8")).split("\n").filter((line) => line.startsWith(`${tool} ran `));

describe("a call whose holder copy is gone", () => {
  it("a state of a call safe to repeat carries its arguments; a write's does not", { timeout: 60_000 }, async () => {
    const safe = questionOf(await callToolByHand({ url: copyUrl(0), name: LOOK_UP, arguments: { topic: "tides" } }));
    expect(opened(safe.state)).toMatchObject({
      tool: LOOK_UP,
      arguments: { topic: "tides" },
      holder: { url: copyUrl(0) },
    });
    expect((await answer(1, safe, "Ada", LOOK_UP)).error).toBeUndefined();
    const write = questionOf(await callToolByHand({ url: copyUrl(0), name: WRITE, arguments: { topic: "ledger" } }));
    expect(opened(write.state).holder?.url).toBe(copyUrl(0));
    expect(opened(write.state).arguments).toBeUndefined();
    expect((await answer(1, write, "Ada", WRITE)).error).toBeUndefined();
  });

  it(
    "runs a call safe to repeat again on the copy the retry reached; a write is not run again",
    { timeout: 60_000 },
    async () => {
      const safe = questionOf(await callToolByHand({ url: copyUrl(4), name: LOOK_UP, arguments: { topic: "rerun" } }));
      const write = questionOf(await callToolByHand({ url: copyUrl(5), name: WRITE, arguments: { topic: "once" } }));
      const [lookUpRuns, writeRuns] = [(await runsOf(LOOK_UP)).length, (await runsOf(WRITE)).length];
      await Promise.all(
        [copies[4], copies[5]].map(async (copy) => {
          if (copy === undefined) return;
          closed.add(copy);
          await copy.close();
        }),
      );

      // An altered state is refused as ever, and runs nothing.
      const middle = Math.floor(safe.state.length / 2);
      const altered = `${safe.state.slice(0, middle)}${safe.state[middle] === "A" ? "B" : "A"}${safe.state.slice(middle + 1)}`;
      const refused = await answer(1, { state: altered, key: safe.key }, "Mallory", LOOK_UP);
      expect(refused.error?.data?.code).toBe("REQUEST_STATE_UNKNOWN");

      // The read-only call runs again on copy two, whose upstream asks again: a new question, held there.
      forwarderSpans.reset();
      const again = questionOf(await answer(1, safe, "Too late", LOOK_UP));
      expect(opened(again.state).holder?.url).toBe(copyUrl(1));
      const rerun = forwarderSpans
        .getFinishedSpans()
        .find((span) => span.events.some((event) => event.name === RERUN_EVENT));
      expect(rerun?.name).toBe(`tools/call ${LOOK_UP}`);
      const rerunEvent = rerun?.events.find((event) => event.name === RERUN_EVENT);
      expect(rerunEvent?.attributes?.[ATTR_GONE_HOLDER]).toBe(copyUrl(4));
      // Why it was taken as gone: copy five is closed, so its connection is refused.
      expect(rerunEvent?.attributes?.[ATTR_GONE_HOLDER_REASON]).toMatch(/^cannot be reached \(.+\)$/);
      // The client answers it as any question (here through copy one, which passes it on to copy two).
      const done = await answer(0, again, "Rerun Ruth", LOOK_UP);
      expect(done.error).toBeUndefined();
      expect(JSON.stringify(done.result?.["content"])).toContain("look-up for Rerun Ruth about rerun");
      expect((await runsOf(LOOK_UP)).length).toBe(lookUpRuns + 1);

      // The write keeps REQUEST_STATE_HOLDER_GONE, saying why, and runs nowhere a second time.
      const gone = await answer(1, write, "Too late", WRITE);
      expect(gone.error?.code).toBe(-32602);
      expect(gone.error?.data?.code).toBe("REQUEST_STATE_HOLDER_GONE");
      expect(gone.error?.message).toMatch(/cannot be reached .*It was not run again here: .*may change something/);
      expect((await runsOf(WRITE)).length).toBe(writeRuns);
    },
  );
});

describe("a call whose holder copy restarted at the same address", () => {
  it(
    "runs again in the new process when safe to repeat, which holds its next question",
    { timeout: 60_000 },
    async () => {
      const port = await freePort();
      const options: GatewayOptions = {
        servers: { eliciting: { transport: "stdio", ...elicitingStdioServer({ eventsFile }) } },
        requestStateKey: KEY,
        peerUrl: urlOf(port),
      };
      const first = await serveOverHttp(options, { port });
      const asked = questionOf(
        await callToolByHand({ url: urlOf(port), name: LOOK_UP, arguments: { topic: "restart" } }),
      );
      await first.close();
      const restarted = await serveOverHttp(options, { port });
      try {
        const runs = (await runsOf(LOOK_UP)).length;
        // Straight to the new process: the state names its address, but another process.
        const again = questionOf(
          await callToolByHand({
            url: urlOf(port),
            name: LOOK_UP,
            extra: {
              requestState: asked.state,
              inputResponses: { [asked.key]: { action: "accept", content: { name: "Lost" } } },
            },
          }),
        );
        expect(opened(again.state).holder?.url).toBe(urlOf(port));
        expect(opened(again.state).holder?.copy).not.toBe(opened(asked.state).holder?.copy);
        const done = await callToolByHand({
          url: urlOf(port),
          name: LOOK_UP,
          extra: {
            requestState: again.state,
            inputResponses: { [again.key]: { action: "accept", content: { name: "After" } } },
          },
        });
        expect(JSON.stringify(done.result?.["content"])).toContain("look-up for After about restart");
        expect((await runsOf(LOOK_UP)).length).toBe(runs + 1);
      } finally {
        await restarted.close();
      }
    },
  );
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
      const refused = await callToolByHand({
        url: copyUrl(copy),
        name: ASK,
        headers: {
          "mcp-gateway-forwarded": `${String(Date.now() + 30_000)}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
        },
        extra: { requestState: asked.state, inputResponses: answers },
      });
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
