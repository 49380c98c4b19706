import { request as httpRequest, type ClientRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { listenHttp, type GatewayHttpServer } from "../src/index.js";
import { servedOverHttpForFile } from "./fixtures.js";
import { startSdkHttpUpstream } from "./sdk-http-upstream.js";

// What the gateway's own 2025-era streamable HTTP endpoint decides, seen by a raw HTTP client: JSON
// or an event stream per answer, the session and protocol-version checks, the GET stream, DELETE,
// and a client that goes away mid-answer. The upstream is an SDK McpServer on real HTTP on 127.0.0.1
// whose `wait` tool records whether its call was cancelled.

interface Upstream {
  readonly url: string;
  /** Calls of `wait` that saw their signal abort, by label. */
  readonly cancelled: Set<string>;
  /** Calls of `wait` that started, by label. */
  readonly started: Set<string>;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const cancelled = new Set<string>();
  const started = new Set<string>();
  const makeServer = (): McpServer => {
    const server = new McpServer({ name: "upstream", version: "1" });
    server.registerTool(
      "echo",
      { description: "Says the text back", inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
      ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    server.registerTool(
      "wait",
      {
        description: "Waits `ms` in `steps` steps, reporting progress after each",
        inputSchema: { label: z.string(), ms: z.number(), steps: z.number().optional() },
        annotations: { readOnlyHint: true },
      },
      async ({ label, ms, steps = 1 }, extra) => {
        started.add(label);
        const token = extra._meta?.progressToken;
        for (let step = 1; step <= steps; step += 1) {
          const finished = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), ms / steps);
            extra.signal.addEventListener("abort", () => {
              clearTimeout(timer);
              resolve(false);
            });
          });
          if (!finished) {
            cancelled.add(label);
            return { content: [{ type: "text", text: "cancelled" }], isError: true };
          }
          if (token !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken: token, progress: step, total: steps },
            });
          }
        }
        return { content: [{ type: "text", text: `waited ${ms} ms` }] };
      },
    );
    server.registerTool(
      "add-tool",
      { description: "Adds a tool (the tool list changes)", inputSchema: { name: z.string() } },
      ({ name }) => {
        for (const each of upstream.servers) {
          each.registerTool(name, { description: "added" }, () => ({ content: [{ type: "text", text: name }] }));
        }
        return { content: [{ type: "text", text: `added ${name}` }] };
      },
    );
    return server;
  };
  const upstream = await startSdkHttpUpstream({ server: makeServer });
  return { url: upstream.url, cancelled, started, close: () => upstream.close() };
}

/** One raw HTTP exchange, its events read as they come. */
interface Exchange {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body so far. */
  readonly text: () => string;
  /** The JSON-RPC messages so far (an event stream's events, or the JSON body once complete). */
  readonly messages: () => JSONRPCMessage[];
  /** Resolves when the response ended. */
  readonly ended: Promise<void>;
  /** Resolves with the first message `match` accepts. */
  waitFor(match: (message: JSONRPCMessage) => boolean): Promise<JSONRPCMessage>;
  /** Goes away: the connection is destroyed. */
  destroy(): void;
}

function exchange(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown },
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    let request: ClientRequest | undefined = undefined;
    request = httpRequest(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {}, agent: false },
      (response) => {
        let text = "";
        const waiters: { match: (message: JSONRPCMessage) => boolean; resolve: (message: JSONRPCMessage) => void }[] =
          [];
        const isStream = String(response.headers["content-type"]).startsWith("text/event-stream");
        const messages = (): JSONRPCMessage[] => {
          if (isStream) {
            return text
              .split("\n")
              .filter((line) => line.startsWith("data: "))
              .map((line) => JSON.parse(line.slice(6)) as JSONRPCMessage);
          }
          if (!response.complete || text.length === 0) return [];
          const body = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
          return Array.isArray(body) ? body : [body];
        };
        const check = (): void => {
          for (const waiter of [...waiters]) {
            const found = messages().find(waiter.match);
            if (found !== undefined) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(found);
            }
          }
        };
        const ended = new Promise<void>((done) => {
          response.once("end", done);
          response.once("close", done);
        });
        response.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
          check();
        });
        response.once("end", check);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: () => text,
          messages,
          ended,
          waitFor: (match) =>
            new Promise((found) => {
              waiters.push({ match, resolve: found });
              check();
            }),
          destroy: () => request?.destroy(),
        });
      },
    );
    request.on("error", () => undefined);
    request.once("error", reject);
    request.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

const ACCEPT_BOTH = "application/json, text/event-stream";
const PROTOCOL_VERSION = "2025-06-18";

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => boolean, ms = 20_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
}

function errorCode(exchanged: Exchange): unknown {
  return (JSON.parse(exchanged.text()) as { error: { data: { code: unknown } } }).error.data.code;
}

describe("the gateway's 2025-era streamable HTTP endpoint", () => {
  let upstream: Upstream;
  let quiet: GatewayHttpServer;

  beforeAll(async () => {
    upstream = await startUpstream();
  }, 60_000);

  afterAll(async () => {
    await upstream.close();
  }, 30_000);

  // Registered after the upstream's hooks: starts after it, and (hooks after tests run in reverse) closes before it.
  const running = servedOverHttpForFile(() => ({
    servers: { up: { transport: "streamable-http", url: upstream.url } },
  }));

  // A second listener on the same gateway that keeps a silent answer alive after 100 ms.
  beforeAll(async () => {
    quiet = await listenHttp(running.gateway, { keepAliveMs: 100 });
  }, 30_000);

  afterAll(async () => {
    await quiet.close();
  }, 30_000);

  /** Opens a session on `url`; returns its id and the headers every later request carries. */
  async function openSession(url = running.http.url): Promise<{ id: string; headers: Record<string, string> }> {
    const initialized = await exchange(url, {
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH },
      body: {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
    });
    await initialized.ended;
    expect(initialized.status).toBe(200);
    const id = String(initialized.headers["mcp-session-id"]);
    const headers = {
      "content-type": "application/json",
      accept: ACCEPT_BOTH,
      "mcp-session-id": id,
      "mcp-protocol-version": PROTOCOL_VERSION,
    };
    const notified = await exchange(url, {
      headers,
      body: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    await notified.ended;
    expect(notified.status).toBe(202);
    expect(notified.text()).toBe("");
    return { id, headers };
  }

  function call(id: number, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): unknown {
    return {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) },
    };
  }

  it("answers a call with one JSON body, and a call with progress as an event stream with the progress first", async () => {
    const initialized = await exchange(running.http.url, {
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH },
      body: {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      },
    });
    await initialized.ended;
    expect(initialized.headers["content-type"]).toBe("application/json");
    expect(initialized.headers["mcp-session-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(initialized.messages()[0]).toMatchObject({
      id: 0,
      result: { serverInfo: { name: "mcp-tool-adapter-gateway" } },
    });

    const { headers } = await openSession();
    const echoed = await exchange(running.http.url, { headers, body: call(1, "echo", { text: "hi" }) });
    await echoed.ended;
    expect(echoed.status).toBe(200);
    expect(echoed.headers["content-type"]).toBe("application/json");
    expect(echoed.headers["content-length"]).toBe(String(Buffer.byteLength(echoed.text())));
    expect(echoed.messages()).toMatchObject([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } },
    ]);

    const waited = await exchange(running.http.url, {
      headers,
      body: call(2, "wait", { label: "progress", ms: 300, steps: 3 }, { progressToken: "p2" }),
    });
    await waited.ended;
    expect(waited.headers["content-type"]).toBe("text/event-stream");
    const methods = waited.messages().map((message) => ("method" in message ? message.method : "response"));
    expect(methods).toEqual(["notifications/progress", "notifications/progress", "notifications/progress", "response"]);
    expect(waited.messages().at(-1)).toMatchObject({ id: 2, result: { content: [{ text: "waited 300 ms" }] } });
  });

  it("answers a batch with an array, and takes a batch of notifications with 202", async () => {
    const { headers } = await openSession();
    const batch = await exchange(running.http.url, {
      headers,
      body: [call(1, "echo", { text: "a" }), call(2, "echo", { text: "b" })],
    });
    await batch.ended;
    expect(batch.headers["content-type"]).toBe("application/json");
    const answers = JSON.parse(batch.text()) as { id: number; result: { content: { text: string }[] } }[];
    expect(answers.map((answer) => [answer.id, answer.result.content[0]?.text]).sort()).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  it("refuses what does not fit the session, with the status and a code, and the session goes on", async () => {
    const { id, headers } = await openSession();
    const listTools = { jsonrpc: "2.0", id: 9, method: "tools/list" };
    const cases: { headers: Record<string, string>; method?: string; body?: unknown; status: number; code: string }[] =
      [
        {
          headers: { ...headers, "mcp-session-id": "not-a-session" },
          body: listTools,
          status: 404,
          code: "SESSION_UNKNOWN",
        },
        {
          headers: { "content-type": "application/json", accept: ACCEPT_BOTH },
          body: listTools,
          status: 400,
          code: "BAD_REQUEST",
        },
        {
          headers: { ...headers, "mcp-protocol-version": "1999-01-01" },
          body: listTools,
          status: 400,
          code: "PROTOCOL_VERSION_UNSUPPORTED",
        },
        { headers: { ...headers, accept: "application/json" }, body: listTools, status: 406, code: "NOT_ACCEPTABLE" },
        {
          headers: { ...headers, "content-type": "text/plain" },
          body: listTools,
          status: 415,
          code: "UNSUPPORTED_MEDIA_TYPE",
        },
        { headers: { ...headers, accept: "application/json" }, method: "GET", status: 406, code: "NOT_ACCEPTABLE" },
        { headers, method: "PUT", status: 405, code: "METHOD_NOT_ALLOWED" },
        { headers, body: { jsonrpc: "1.0", id: 1, method: "tools/list" }, status: 400, code: "BAD_REQUEST" },
        {
          headers,
          body: Array.from({ length: 101 }, (_, index) => ({ ...listTools, id: index })),
          status: 400,
          code: "BAD_REQUEST",
        },
        {
          headers,
          body: {
            jsonrpc: "2.0",
            id: 5,
            method: "initialize",
            params: {
              protocolVersion: PROTOCOL_VERSION,
              capabilities: {},
              clientInfo: { name: "again", version: "1" },
            },
          },
          status: 400,
          code: "BAD_REQUEST",
        },
      ];
    for (const refused of cases) {
      const answer = await exchange(running.http.url, {
        method: refused.method ?? "POST",
        headers: refused.headers,
        body: refused.body,
      });
      await answer.ended;
      expect({ status: answer.status, code: errorCode(answer) }).toEqual({
        status: refused.status,
        code: refused.code,
      });
      if (refused.code === "METHOD_NOT_ALLOWED") expect(answer.headers.allow).toBe("GET, POST, DELETE");
    }
    const listed = await exchange(running.http.url, { headers, body: listTools });
    await listed.ended;
    const tools = (listed.messages()[0] as unknown as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.map((tool) => tool.name)).toContain("echo");
    expect(id.length).toBeGreaterThan(0);
  });

  it("carries what relates to no request on the GET stream, one per session, and DELETE ends the session", async () => {
    const { headers } = await openSession();
    const stream = await exchange(running.http.url, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream" },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toBe("text/event-stream");
    const second = await exchange(running.http.url, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream" },
    });
    await second.ended;
    expect({ status: second.status, code: errorCode(second) }).toEqual({ status: 409, code: "STREAM_CONFLICT" });

    const added = await exchange(running.http.url, { headers, body: call(3, "add-tool", { name: "late" }) });
    await added.ended;
    expect(added.messages()[0]).toMatchObject({ id: 3, result: { content: [{ text: "added late" }] } });
    // The upstream's list change is the gateway's own, related to no request of this client.
    await stream.waitFor((message) => "method" in message && message.method === "notifications/tools/list_changed");

    const deleted = await exchange(running.http.url, { method: "DELETE", headers });
    await deleted.ended;
    expect(deleted.status).toBe(200);
    await stream.ended;
    const after = await exchange(running.http.url, { headers, body: call(4, "echo", { text: "gone?" }) });
    await after.ended;
    expect({ status: after.status, code: errorCode(after) }).toEqual({ status: 404, code: "SESSION_UNKNOWN" });
  });

  it("cancels the upstream call when the client goes away mid-stream, leaves no timer behind, and serves the session on", async () => {
    const { headers } = await openSession();
    // Timers the process holds now: a call left running (the gateway's answer, the adapter's call
    // timeout, the upstream's wait) would hold more after the client left.
    // Measured after a call, so the timers that any call leaves running (connection pools) are counted in.
    const warm = await exchange(running.http.url, { headers, body: call(4, "echo", { text: "warm" }) });
    await warm.ended;
    const timersBefore = activeTimers();
    const streaming = await exchange(running.http.url, {
      headers,
      body: call(5, "wait", { label: "gone-mid-stream", ms: 60_000, steps: 600 }, { progressToken: "p5" }),
    });
    expect(streaming.headers["content-type"]).toBe("text/event-stream");
    await streaming.waitFor((message) => "method" in message && message.method === "notifications/progress");
    streaming.destroy();
    expect(await eventually(() => upstream.cancelled.has("gone-mid-stream"))).toBe(true);

    // Gone before any byte of the answer was sent (it would have been one JSON body).
    const silent = httpRequest(running.http.url, { method: "POST", headers, agent: false });
    silent.on("error", () => undefined);
    silent.end(JSON.stringify(call(6, "wait", { label: "gone-silent", ms: 60_000 })));
    expect(await eventually(() => upstream.started.has("gone-silent"))).toBe(true);
    silent.destroy();
    expect(await eventually(() => upstream.cancelled.has("gone-silent"))).toBe(true);
    expect(await eventually(() => activeTimers() <= timersBefore, 10_000)).toBe(true);

    const echoed = await exchange(running.http.url, { headers, body: call(7, "echo", { text: "still here" }) });
    await echoed.ended;
    expect(echoed.messages()[0]).toMatchObject({ id: 7, result: { content: [{ text: "still here" }] } });
  });

  it("turns an answer silent for the keep-alive interval into an event stream, so a proxy in front keeps it open", async () => {
    const { headers } = await openSession(quiet.url);
    const waited = await exchange(quiet.url, { headers, body: call(8, "wait", { label: "quiet", ms: 1_000 }) });
    await waited.ended;
    expect(waited.headers["content-type"]).toBe("text/event-stream");
    expect(waited.text()).toContain(": keepalive");
    expect(waited.messages()).toMatchObject([
      { jsonrpc: "2.0", id: 8, result: { content: [{ type: "text", text: "waited 1000 ms" }] } },
    ]);
  });
});
