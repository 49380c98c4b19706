import { createStreamableHttpTransport } from "@mcp-tool-adapter/transport-http";
import {
  deletesSeenBy,
  EVERYTHING_UNKNOWN_SESSION_STATUS,
  exchangesSeenBy,
  holdingCancellations,
  recordingLogger,
  sessionFaultPlan,
  sessionsSeenBy,
  slowCallInFlight,
  startEverythingHttp,
  startFaultHttpServer,
  startRecordingProxy,
  statusOfRequestInSession,
  type EverythingHttpServer,
  type FaultBehavior,
  type RecordedLogger,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter, type MCPServerConfig } from "../src/index.js";

// A deliberate close of a 2025-era streamable HTTP connection ends the server's session with a
// DELETE (spec 2025-03-26 "Session Management"); a lost connection does not send one. Counted on
// the wire: a recording proxy in front of server-everything, or the fault server's own log.

let everything: EverythingHttpServer;

beforeAll(async () => {
  everything = await startEverythingHttp({ mode: "streamableHttp" });
});
afterAll(async () => {
  await everything.stop();
});

function adapterFor(
  config: MCPServerConfig,
  engine: "json-rpc" | "sdk-v1",
  closeTimeoutMs?: number,
  logger?: RecordedLogger,
): MCPToolAdapter {
  return new MCPToolAdapter(config, {
    engine,
    transport: (server) => createStreamableHttpTransport(server as Parameters<typeof createStreamableHttpTransport>[0]),
    ...(closeTimeoutMs === undefined ? {} : { closeTimeoutMs }),
    ...(logger === undefined ? {} : { logger }),
  });
}

describe.each(["json-rpc", "sdk-v1"] as const)("engine %s against server-everything", (engine) => {
  it("disconnect() ends the session with one DELETE carrying its id and the config's headers", async () => {
    const proxy = await startRecordingProxy(everything.url);
    const config = {
      name: "everything",
      transport: "streamable-http",
      url: proxy.url,
      headers: { "X-Team": "session-end" },
    } as const;
    const adapter = adapterFor(config, engine);
    try {
      await adapter.connect();
      const [sessionId] = sessionsSeenBy(proxy);
      expect(sessionId).toBeTypeOf("string");
      expect(await statusOfRequestInSession(everything.url, sessionId as string)).toBe(200);
      await adapter.disconnect();
      await adapter.disconnect();
      expect(deletesSeenBy(proxy)).toEqual([{ sessionId, status: 200 }]);
      const sent = proxy.requests.find((request) => request.method === "DELETE");
      expect(sent?.headers["x-team"]).toBe("session-end");
      // The server no longer knows it: server-everything answers an unknown session with 400
      // ("No valid session ID provided") where the spec says 404; its log says why.
      expect(await statusOfRequestInSession(everything.url, sessionId as string)).toBe(
        EVERYTHING_UNKNOWN_SESSION_STATUS,
      );
      expect(everything.output).toContain(`Received session termination request for session ${sessionId}`);
    } finally {
      await adapter.disconnect();
      await proxy.close();
    }
  });

  it("reconnect() ends the old session and goes on in a new one", async () => {
    const proxy = await startRecordingProxy(everything.url);
    const adapter = adapterFor({ name: "everything", transport: "streamable-http", url: proxy.url }, engine);
    try {
      await adapter.connect();
      const [first] = sessionsSeenBy(proxy) as [string];
      await adapter.reconnect();
      expect(sessionsSeenBy(proxy)).toEqual([first, expect.any(String)]);
      expect(deletesSeenBy(proxy)).toEqual([{ sessionId: first, status: 200 }]);
      expect(await statusOfRequestInSession(everything.url, first)).toBe(EVERYTHING_UNKNOWN_SESSION_STATUS);
      expect(await adapter.invoke("echo", { message: "again" })).toMatchObject({ success: true });
    } finally {
      await adapter.disconnect();
      await proxy.close();
    }
    expect(deletesSeenBy(proxy).map((each) => each.sessionId)).toEqual([expect.any(String), expect.any(String)]);
  });
});

it("the transport with fallbackToSse (no fallback needed) ends its session too", async () => {
  const proxy = await startRecordingProxy(everything.url);
  const adapter = new MCPToolAdapter(
    { name: "everything", transport: "streamable-http", url: proxy.url },
    {
      transport: (server) =>
        createStreamableHttpTransport(server as Parameters<typeof createStreamableHttpTransport>[0], {
          fallbackToSse: true,
        }),
    },
  );
  try {
    await adapter.connect();
    const [sessionId] = sessionsSeenBy(proxy);
    await adapter.disconnect();
    expect(deletesSeenBy(proxy)).toEqual([{ sessionId, status: 200 }]);
  } finally {
    await adapter.disconnect();
    await proxy.close();
  }
});

const SESSION = "fault-session-1";

describe("a DELETE that fails never fails or hangs disconnect()", () => {
  it.each([
    ["405 (the server keeps sessions itself)", { kind: "status", status: 405 }],
    ["404", { kind: "status", status: 404 }],
    ["500", { kind: "status", status: 500, body: "boom" }],
    ["a dropped connection", { kind: "close" }],
    ["no answer at all", { kind: "hang" }],
  ] as [string, FaultBehavior][])("answered with %s", async (_name, onDelete) => {
    const server = await startFaultHttpServer(sessionFaultPlan(SESSION, onDelete));
    // The hanging DELETE is given up within this; the test's own timeout catches a hang.
    const adapter = adapterFor({ name: "fault", transport: "streamable-http", url: server.url }, "json-rpc", 300);
    try {
      await adapter.connect();
      await adapter.disconnect();
      expect(adapter.isConnected).toBe(false);
      const deletes = server.requests.filter((request) => request.method === "DELETE");
      expect(deletes.map((request) => request.headers["mcp-session-id"])).toEqual([SESSION]);
      // The adapter connects again afterwards, in a session of its own.
      await adapter.connect();
      expect(adapter.isConnected).toBe(true);
    } finally {
      await adapter.disconnect();
      await server.close();
    }
  });

  it("a server that is gone (connection refused) does not fail disconnect()", async () => {
    const server = await startFaultHttpServer(sessionFaultPlan(SESSION, { kind: "status", status: 200 }));
    const adapter = adapterFor({ name: "fault", transport: "streamable-http", url: server.url }, "json-rpc", 300);
    await adapter.connect();
    await server.close();
    await expect(adapter.disconnect()).resolves.toBeUndefined();
    expect(adapter.isConnected).toBe(false);
  });
});

describe("a lost connection sends no DELETE", () => {
  it("a request whose connection drops loses the session without ending it", async () => {
    const server = await startFaultHttpServer(
      sessionFaultPlan(SESSION, { kind: "status", status: 200 }, { kind: "close" }),
    );
    const adapter = adapterFor({ name: "fault", transport: "streamable-http", url: server.url }, "json-rpc", 300);
    try {
      await adapter.connect();
      const listed = await adapter.discoverTools().catch((error: unknown) => error);
      expect(listed).toBeInstanceOf(Error);
      expect(adapter.isConnected).toBe(false);
      // A new session's handshake (three round trips) is far behind a DELETE sent at the loss.
      server.setBehavior(sessionFaultPlan(SESSION, { kind: "status", status: 200 }));
      await adapter.connect();
      expect(server.requests.filter((request) => request.method === "DELETE")).toEqual([]);
    } finally {
      await adapter.disconnect();
      await server.close();
    }
  });
});

// A call given up by disconnect() is cancelled on the server (SDK 1.x's Protocol sends
// `notifications/cancelled` when the call's signal aborts; the json-rpc engine sends none: the
// DELETE ends the call with the session). The cancellation goes before the DELETE: sent alongside,
// it could reach a server that already ended the session (server-everything answers 400).
describe("engine sdk-v1: disconnect() with a call in flight", () => {
  it("cancels the call before the DELETE ends the session, and logs nothing for it", async () => {
    // The server is slow on the cancellation: without the ordering the DELETE overtakes it.
    const proxy = await startRecordingProxy(everything.url, { hold: holdingCancellations(300) });
    const { logger, lines } = recordingLogger();
    const adapter = adapterFor(
      { name: "everything", transport: "streamable-http", url: proxy.url },
      "sdk-v1",
      5_000,
      logger,
    );
    try {
      await adapter.connect();
      const signal = new AbortController().signal;
      const { outcome } = await slowCallInFlight(proxy, (tool, args) => adapter.invoke(tool, args, { signal }));
      await adapter.disconnect();
      const result = await outcome;
      expect(result).toMatchObject({ success: false, errorKind: "connection_lost" });
      expect(result.error).toContain("disconnect() was called");
      expect(exchangesSeenBy(proxy).slice(-2)).toEqual([
        { sent: "POST notifications/cancelled", status: 202 },
        { sent: "DELETE", status: 200 },
      ]);
      expect(lines.filter((line) => /^(warn|error):|cancel/i.test(line))).toEqual([]);
    } finally {
      await adapter.disconnect();
      await proxy.close();
    }
  });

  it("gives up on a cancellation the server never answers within closeTimeoutMs, quietly", async () => {
    const proxy = await startRecordingProxy(everything.url, { hold: holdingCancellations(Number.POSITIVE_INFINITY) });
    const { logger, lines } = recordingLogger();
    const closeTimeoutMs = 300;
    const adapter = adapterFor(
      { name: "everything", transport: "streamable-http", url: proxy.url },
      "sdk-v1",
      closeTimeoutMs,
      logger,
    );
    try {
      await adapter.connect();
      const signal = new AbortController().signal;
      const { outcome } = await slowCallInFlight(proxy, (tool, args) => adapter.invoke(tool, args, { signal }));
      const started = performance.now();
      await adapter.disconnect();
      // The budget, and some room for a busy machine; a wait for the answer would last the test's timeout.
      expect(performance.now() - started).toBeLessThan(closeTimeoutMs + 700);
      expect(await outcome).toMatchObject({ success: false, errorKind: "connection_lost" });
      // The budget went to the cancellation: no DELETE follows one that never settled.
      expect(exchangesSeenBy(proxy).at(-1)).toEqual({ sent: "POST notifications/cancelled", status: undefined });
      expect(lines.filter((line) => /^(warn|error):|cancel/i.test(line))).toEqual([]);
    } finally {
      await adapter.disconnect();
      await proxy.close();
    }
  });
});
