import { getEventListeners } from "node:events";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { startFaultHttpServer, type FaultHttpServer, type FaultPlan } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { HttpTransportError } from "../src/index.js";
import { bodyReader, discardBody, type BodyReader } from "../src/body-reader.js";
import { createGuardedFetch, type GuardedFetch } from "../src/guarded-fetch.js";

// Without an injected fetch, the guard sends the transports' own requests (redirect: "manual",
// text body) through undici's request API. These tests drive it the way the SDK transports do, against real
// servers on 127.0.0.1.

const servers: FaultHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(plan: FaultPlan): Promise<FaultHttpServer> {
  const server = await startFaultHttpServer(plan);
  servers.push(server);
  return server;
}

interface Guard extends GuardedFetch {
  oversized: { error: HttpTransportError; requestBody: string | undefined }[];
}

function guard(maxMessageBytes = 1_000_000): Guard {
  const oversized: Guard["oversized"] = [];
  const guarded = createGuardedFetch({
    transport: "streamable-http",
    url: "http://127.0.0.1/mcp",
    maxMessageBytes,
    secrets: new Set(),
    onOversizedEvent: (error, requestBody) => oversized.push({ error, requestBody }),
  });
  return Object.assign(guarded, { oversized });
}

/** A POST as the SDK's streamable HTTP transport sends it. */
function post(body: string, signal?: AbortSignal): RequestInit {
  const headers = new Headers({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": "s-1",
  });
  return { method: "POST", headers, body, redirect: "manual", ...(signal === undefined ? {} : { signal }) };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const event = (data: string): string => `event: message\ndata: ${data}\n\n`;

describe("the guard's own HTTP client (no fetch injected)", () => {
  it("sends a plain record of headers as a Headers would: names in any case, values trimmed, repeats joined", async () => {
    const server = await serve({ kind: "status", status: 202 });
    const headers = { "Content-Type": "application/json", "X-Team": " blue ", "x-team": "red", Accept: "*/*" };
    await guard().fetch(server.url, { method: "POST", headers, body: "{}", redirect: "manual" });
    const [seen] = server.requests;
    expect(seen?.headers).toMatchObject({ "content-type": "application/json", "x-team": "blue, red", accept: "*/*" });
  });

  it("sends the request as given and hands out the body the server streamed", async () => {
    const server = await serve({
      kind: "chunks",
      contentType: "text/event-stream",
      headers: { "mcp-session-id": "s-1" },
      chunks: [event('{"n":1}'), event('{"n":2}')],
    });
    const response = await guard().fetch(server.url, post('{"jsonrpc":"2.0","id":1,"method":"ping"}'));

    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBe("s-1");
    expect(await response.text()).toBe(event('{"n":1}') + event('{"n":2}'));
    const [seen] = server.requests;
    expect(seen?.method).toBe("POST");
    expect(seen?.body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(seen?.headers["mcp-session-id"]).toBe("s-1");
    expect(seen?.headers["content-length"]).toBe(String(seen?.body.length));
    // Only what the transport set: none of fetch's own defaults (it did not go through fetch).
    expect(seen?.headers["sec-fetch-mode"]).toBeUndefined();
  });

  it("hands out an ordinary fetch Response, whichever way its body is read", async () => {
    const server = await serve({ kind: "status", status: 200, body: { ok: true } });
    const { fetch } = guard();
    const json = '{"ok":true}';

    const read = await fetch(server.url, post("{}"));
    expect(read).toBeInstanceOf(Response);
    expect(read.bodyUsed).toBe(false);
    expect(await read.json()).toEqual({ ok: true });
    expect(read.bodyUsed).toBe(true);
    await expect(read.text()).rejects.toThrow(TypeError);

    const cloned = await fetch(server.url, post("{}"));
    const copy = cloned.clone();
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe(json);
    expect(await cloned.text()).toBe(json);

    const streamed = await fetch(server.url, post("{}"));
    const reader = streamed.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(json);
    expect((await reader.read()).done).toBe(true);
    await expect(streamed.text()).rejects.toThrow(TypeError);
    expect(server.openConnections).toBeGreaterThan(0);
  });

  it("lets the transports read a body chunk by chunk without a web stream, and closes the connection when one is dropped", async () => {
    const server = await serve({
      kind: "chunks",
      contentType: "text/event-stream",
      chunks: [event('{"n":1}'), event('{"n":2}')],
      intervalMs: 20,
      keepOpen: true,
    });
    const response = await guard().fetch(server.url, post("{}"));
    const reader = bodyReader(response) as BodyReader;
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(event('{"n":1}'));
    expect(response.bodyUsed).toBe(true);
    expect(bodyReader(response)).toBe(reader);
    await discardBody(response);
    expect((await reader.read()).done).toBe(true);
    await expect.poll(() => server.openConnections).toBe(0);
  });

  it("hands out the response's headers as fetch would, a name sent twice joined", async () => {
    const server = createHttpServer((_request, response) => {
      response.setHeader("x-repeated", ["a", "b"]);
      response.setHeader("x-once", "one");
      response.setHeader("content-type", "application/json");
      response.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const { fetch } = guard();
      for (const body of ["{}", '{"again":true}']) {
        const answer = await fetch(url, post(body));
        expect(answer.headers.get("x-repeated")).toBe("a, b");
        expect(answer.headers.get("x-once")).toBe("one");
        expect(answer.headers.get("content-type")).toBe("application/json");
        expect(await answer.json()).toEqual({});
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps one connection for sequential requests, empty and body-less answers included", async () => {
    const server = await serve((request) => {
      if (request.body.includes("notification")) return { kind: "status", status: 202 };
      if (request.method === "DELETE") return { kind: "status", status: 204 };
      return { kind: "status", status: 200, body: { ok: true } };
    });
    const { fetch } = guard();

    for (let round = 0; round < 3; round += 1) {
      const accepted = await fetch(server.url, post('{"notification":true}'));
      expect(accepted.status).toBe(202);
      expect(accepted.body).toBeNull();
      expect(await (await fetch(server.url, post("{}"))).json()).toEqual({ ok: true });
      const deleted = await fetch(server.url, { method: "DELETE", redirect: "manual" });
      expect(deleted.status).toBe(204);
      expect(deleted.body).toBeNull();
    }
    expect(server.requests.map((request) => request.method)).toEqual(
      Array.from({ length: 3 }, () => ["POST", "POST", "DELETE"]).flat(),
    );
    // Keep-alive: the nine requests shared connections. Two, not one: undici waits a full
    // event-loop turn before it reuses a connection (a server that said keep-alive may still close
    // it), and a request sent sooner opens a second one, which later requests reuse in turn.
    expect(server.acceptedConnections).toBeGreaterThanOrEqual(1);
    expect(server.acceptedConnections).toBeLessThanOrEqual(2);
    expect(server.openConnections).toBe(server.acceptedConnections);
  });

  it("fails an oversized server-sent event mid-stream, tells the transport which request it answered, and drops the connection", async () => {
    const server = await serve({
      kind: "chunks",
      contentType: "text/event-stream",
      chunks: [event('{"small":true}'), `data: ${"x".repeat(600)}`, "x".repeat(600)],
      intervalMs: 20,
      keepOpen: true,
    });
    const guarded = guard(1_000);
    const requestBody = '{"jsonrpc":"2.0","id":7,"method":"tools/call"}';
    const response = await guarded.fetch(server.url, post(requestBody));
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;

    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(event('{"small":true}'));
    const readToEnd = async (): Promise<void> => {
      while (!(await reader.read()).done);
    };
    const error = await failureOf(readToEnd());
    expect(HttpTransportError.isInstance(error) && error.code).toBe("MESSAGE_TOO_LARGE");
    expect((error as Error).message).toContain("a server-sent event exceeds maxMessageBytes (1000 bytes)");
    expect(guarded.oversized).toEqual([{ error, requestBody }]);
    await expect.poll(() => server.openConnections).toBe(0);
  });

  it("refuses a body whose Content-Length is over the limit before reading it", async () => {
    const server = await serve({ kind: "status", status: 200, body: "z".repeat(5000) });
    const error = await failureOf(guard(1_000).fetch(server.url, post("{}")));
    expect(HttpTransportError.isInstance(error) && error.code).toBe("MESSAGE_TOO_LARGE");
    expect((error as Error).message).toContain("its Content-Length of 5000 bytes");
  });

  it("decompresses a gzip body the server sent anyway, and counts the decompressed bytes", async () => {
    const json = JSON.stringify({ padding: "z".repeat(20_000) });
    const server = await serve({
      kind: "status",
      status: 200,
      body: gzipSync(json),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(await (await guard(100_000).fetch(server.url, post("{}"))).text()).toBe(json);
    const refused = await guard(10_000).fetch(server.url, post("{}"));
    const error = await failureOf(refused.text());
    expect(HttpTransportError.isInstance(error) && error.code).toBe("MESSAGE_TOO_LARGE");
  });

  it("rejects with the signal's reason when aborted before the response, and errors the body when aborted after", async () => {
    const server = await serve((request) =>
      request.body === "wait"
        ? { kind: "hang" }
        : { kind: "chunks", contentType: "text/event-stream", chunks: [event("{}")], keepOpen: true },
    );
    const { fetch } = guard();

    const before = new AbortController();
    const waiting = failureOf(fetch(server.url, post("wait", before.signal)));
    await expect.poll(() => server.requests.length).toBe(1);
    const reason = new Error("transport closed");
    before.abort(reason);
    expect(await waiting).toBe(reason);

    const after = new AbortController();
    const response = await fetch(server.url, post("stream", after.signal));
    const reader = response.body?.getReader();
    await reader?.read();
    after.abort(reason);
    expect(await failureOf(reader?.read() ?? Promise.resolve())).toBe(reason);

    const already = new AbortController();
    already.abort(reason);
    expect(await failureOf(fetch(server.url, post("{}", already.signal)))).toBe(reason);
  });

  it("puts one listener on the transport's signal however many requests are in flight", async () => {
    const server = await serve({ kind: "status", status: 200, body: {} });
    const { fetch } = guard();
    const shared = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      // All 50 are sent before any answer can arrive, so all are in flight together.
      const inFlight = Array.from({ length: 50 }, () => fetch(server.url, post("{}", shared.signal)));
      for (const response of await Promise.all(inFlight)) expect(await response.json()).toEqual({});
      expect(server.requests).toHaveLength(50);
      expect(getEventListeners(shared.signal, "abort")).toHaveLength(1);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("fails like fetch when nothing listens: TypeError('fetch failed') caused by ECONNREFUSED, kept as the last network error", async () => {
    const server = await serve({ kind: "status", status: 200 });
    const url = server.url;
    await server.close();
    const guarded = guard();

    const error = await failureOf(guarded.fetch(url, post("{}")));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    expect(((error as Error).cause as { code?: string }).code).toBe("ECONNREFUSED");
    expect(guarded.lastNetworkError).toBe(error);
  });

  it("errors the body with TypeError('terminated') when the connection drops before the body ends", async () => {
    const server = await serve({
      kind: "chunks",
      contentType: "text/event-stream",
      chunks: [event("{}")],
      dropAfter: true,
    });
    const response = await guard().fetch(server.url, post("{}"));
    const error = await failureOf(response.text());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
  });

  it("returns a redirect as it is when asked to, and leaves a request that wants it followed to fetch", async () => {
    const server = await serve((request) =>
      request.url === "/mcp"
        ? { kind: "status", status: 307, headers: { location: "/moved" } }
        : { kind: "status", status: 200, body: { moved: true } },
    );
    const { fetch } = guard();

    const manual = await fetch(server.url, post("{}"));
    expect(manual.status).toBe(307);
    expect(manual.headers.get("location")).toBe("/moved");

    const followed = await fetch(server.url, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(followed.status).toBe(200);
    expect(await followed.json()).toEqual({ moved: true });
    expect(server.requests.map((request) => request.url)).toEqual(["/mcp", "/mcp", "/moved"]);
  });
});
