import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPeerRelay, type CutOff, type CutOffRest, type PeerRelay, type RelayOutcome } from "../src/peer-relay.js";

// The relay's side of a holder that breaks off its event stream, over real HTTP on 127.0.0.1: the
// "holder" here writes the bytes each case needs and then destroys its socket, as a killed process's
// connection ends (held-call-cut-off.test.ts kills a real gateway copy).
const RESPONSE = `event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n`;
const PROGRESS = `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1}}\n\n`;
const HALF = `event: message\ndata: {"jsonrpc":"2.0","id":7,"res`;

const cases: Record<string, string> = { answered: RESPONSE, progress: PROGRESS, half: PROGRESS + HALF };
// Written in two parts, the first ending inside an event: what follows is relayed whole, then its end.
const SPLIT = [PROGRESS.slice(0, 20), PROGRESS.slice(20) + RESPONSE];
const REST = "event: message\ndata: rest\n\n";
let holder: Server;
let url: string;

beforeAll(async () => {
  holder = createServer((request, response: ServerResponse) => {
    if (request.url === "/json") {
      // One JSON body, its length announced, cut off halfway: no event stream to continue.
      const body = RESPONSE.slice(RESPONSE.indexOf("{"), RESPONSE.lastIndexOf("}") + 1);
      response.writeHead(200, { "content-type": "application/json", "content-length": String(body.length) });
      response.write(body.slice(0, 10), () => setTimeout(() => response.socket?.destroy(), 50));
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    if (request.url === "/split") {
      response.write(SPLIT[0], () => setTimeout(() => response.end(SPLIT[1]), 50));
      return;
    }
    const bytes = cases[request.url?.slice(1) ?? ""] ?? "";
    response.write(bytes, () => setTimeout(() => response.socket?.destroy(), 50));
  });
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${String((holder.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise((resolve) => holder.close(resolve));
});

/** What the cut-off gives: the rest as bytes, or as a stream of them (this copy's own event stream, a rerun's). */
const restAs = {
  text: (): CutOffRest => REST,
  stream: (): CutOffRest =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        // Its first chunk comes later, as a rerun's first event does.
        setTimeout(() => {
          controller.enqueue(new TextEncoder().encode(REST));
          controller.close();
        }, 50);
      },
    }),
};

async function relayed(path: string, rest = restAs.text): Promise<{ text: string; cuts: CutOff[] }> {
  const { outcome, cuts, relay } = await forwarded(path, rest);
  try {
    if (outcome.kind !== "answered") throw new Error(`not answered: ${outcome.cause}`);
    return { text: await outcome.response.text(), cuts };
  } finally {
    relay.close();
  }
}

async function forwarded(
  path: string,
  rest = restAs.text,
): Promise<{ outcome: RelayOutcome; cuts: CutOff[]; relay: PeerRelay }> {
  const relay = createPeerRelay({ hopKey: Buffer.alloc(32, 1) });
  const cuts: CutOff[] = [];
  const outcome = await relay.forward(
    {
      holderUrl: `${url}/${path}`,
      request: new Request("http://client/mcp", { method: "POST" }),
      body: {},
      state: "s",
    },
    (cut) => {
      cuts.push(cut);
      return Promise.resolve(cut.responded ? undefined : rest());
    },
  );
  return { outcome, cuts, relay };
}

describe("a relayed event stream the holder breaks off", () => {
  it("after its response: told so, and nothing follows it", async () => {
    const { text, cuts } = await relayed("answered");
    expect(cuts.map((cut) => cut.responded)).toEqual([true]);
    expect(text).toBe(RESPONSE);
  });

  it("after notifications only: not answered, and what the cut-off gives follows them", async () => {
    const { text, cuts } = await relayed("progress");
    expect(cuts.map((cut) => cut.responded)).toEqual([false]);
    expect(text).toBe(`${PROGRESS}${REST}`);
  });

  it("after notifications only, the rest a stream (a rerun's own events): they follow as they come", async () => {
    const { text, cuts } = await relayed("progress", restAs.stream);
    expect(cuts.map((cut) => cut.responded)).toEqual([false]);
    expect(text).toBe(`${PROGRESS}${REST}`);
  });

  it("an event that arrives in two parts is relayed once whole, and a stream that ends is not cut off", async () => {
    const { text, cuts } = await relayed("split");
    expect(cuts).toEqual([]);
    expect(text).toBe(PROGRESS + RESPONSE);
  });

  it("in the middle of an event: the half event is never passed on", async () => {
    const { text, cuts } = await relayed("half");
    expect(cuts.map((cut) => cut.responded)).toEqual([false]);
    expect(text).toBe(`${PROGRESS}event: message\ndata: rest\n\n`);
  });

  it("a JSON answer cut off in its body: nothing relayed, the holder reported unreachable (gone before its answer began)", async () => {
    const { outcome, cuts, relay } = await forwarded("json");
    relay.close();
    expect(cuts).toEqual([]);
    expect(outcome).toEqual({
      kind: "unreachable",
      cause: expect.stringMatching(/^its answer was cut off \(/) as string,
    });
  });
});
