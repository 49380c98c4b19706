import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
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
  startV2HttpServer,
  statusOfRequestInSession,
  type EverythingHttpServer,
  type FaultBehavior,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEngine2026 } from "../src/index.js";

// engine-2026 ends a 2025-era streamable HTTP session with a DELETE when the host closes it on
// purpose (transport-http's client, which carries the 2025 connection, sends it), and sends none
// on 2026-07-28, which has no session. Counted on the wire through a recording proxy.

let everything: EverythingHttpServer;

beforeAll(async () => {
  everything = await startEverythingHttp({ mode: "streamableHttp" });
});
afterAll(async () => {
  await everything.stop();
});

describe.each(["2025", "auto"] as const)(
  "engine-2026 with protocol %s against server-everything (2025 era)",
  (protocol) => {
    it("disconnect() ends the session with one DELETE carrying its id and the config's headers", async () => {
      const proxy = await startRecordingProxy(everything.url);
      const adapter = new MCPToolAdapter(
        { name: "everything", transport: "streamable-http", url: proxy.url, protocol, headers: { "X-Team": "d39" } },
        { engine: createEngine2026() },
      );
      try {
        await adapter.connect();
        expect(adapter.protocolEra).toBe("2025");
        const [sessionId] = sessionsSeenBy(proxy) as [string];
        expect(await statusOfRequestInSession(everything.url, sessionId)).toBe(200);
        await adapter.disconnect();
        expect(deletesSeenBy(proxy)).toEqual([{ sessionId, status: 200 }]);
        expect(proxy.requests.find((request) => request.method === "DELETE")?.headers["x-team"]).toBe("d39");
        expect(await statusOfRequestInSession(everything.url, sessionId)).toBe(EVERYTHING_UNKNOWN_SESSION_STATUS);
        expect(everything.output).toContain(`Received session termination request for session ${sessionId}`);
      } finally {
        await adapter.disconnect();
        await proxy.close();
      }
    });

    it("reconnect() ends the old session", async () => {
      const proxy = await startRecordingProxy(everything.url);
      const adapter = new MCPToolAdapter(
        { name: "everything", transport: "streamable-http", url: proxy.url, protocol },
        { engine: createEngine2026() },
      );
      try {
        await adapter.connect();
        const [first] = sessionsSeenBy(proxy) as [string];
        await adapter.reconnect();
        expect(sessionsSeenBy(proxy)).toEqual([first, expect.any(String)]);
        expect(deletesSeenBy(proxy)).toEqual([{ sessionId: first, status: 200 }]);
        expect(await adapter.invoke("echo", { message: "again" })).toMatchObject({ success: true });
      } finally {
        await adapter.disconnect();
        await proxy.close();
      }
    });
  },
);

describe("engine-2026 on 2026-07-28 (stateless)", () => {
  it.each(["auto", "2026-07-28"] as const)("protocol %s: disconnect() sends no DELETE", async (protocol) => {
    const server = await startV2HttpServer();
    const proxy = await startRecordingProxy(server.url);
    const adapter = new MCPToolAdapter(
      { name: "modern", transport: "streamable-http", url: proxy.url, protocol },
      { engine: createEngine2026() },
    );
    try {
      await adapter.connect();
      expect(adapter.protocolEra).toBe("2026-07-28");
      expect(await adapter.invoke("echo", { text: "hi" })).toMatchObject({ success: true });
      await adapter.disconnect();
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(deletesSeenBy(proxy)).toEqual([]);
    } finally {
      await adapter.disconnect();
      await proxy.close();
      await server.close();
    }
  });
});

const SESSION = "fault-session-2026";

describe("engine-2026: a DELETE that fails never fails or hangs disconnect()", () => {
  it.each([
    ["500", { kind: "status", status: 500, body: "boom" }],
    ["no answer at all", { kind: "hang" }],
  ] as [string, FaultBehavior][])("answered with %s", async (_name, onDelete) => {
    const server = await startFaultHttpServer(sessionFaultPlan(SESSION, onDelete));
    const adapter = new MCPToolAdapter(
      { name: "fault", transport: "streamable-http", url: server.url, protocol: "2025" },
      { engine: createEngine2026(), closeTimeoutMs: 300 },
    );
    try {
      await adapter.connect();
      await adapter.disconnect();
      expect(adapter.isConnected).toBe(false);
      const deletes = server.requests.filter((request) => request.method === "DELETE");
      expect(deletes.map((request) => request.headers["mcp-session-id"])).toEqual([SESSION]);
    } finally {
      await adapter.disconnect();
      await server.close();
    }
  });
});

// A call given up by disconnect() is cancelled on the server (SDK v2's Protocol sends
// `notifications/cancelled` when the call's signal aborts) before the DELETE ends the session:
// sent alongside, it could reach a server that already ended it (server-everything answers 400).
describe("engine-2026 with protocol 2025: disconnect() with a call in flight", () => {
  function adapterThrough(url: string, closeTimeoutMs: number): { adapter: MCPToolAdapter; lines: string[] } {
    const { logger, lines } = recordingLogger();
    const adapter = new MCPToolAdapter(
      { name: "everything", transport: "streamable-http", url, protocol: "2025" },
      { engine: createEngine2026(), closeTimeoutMs, logger },
    );
    return { adapter, lines };
  }

  it("cancels the call before the DELETE ends the session, and logs nothing for it", async () => {
    // The server is slow on the cancellation: without the ordering the DELETE overtakes it.
    const proxy = await startRecordingProxy(everything.url, { hold: holdingCancellations(300) });
    const { adapter, lines } = adapterThrough(proxy.url, 5_000);
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
    const closeTimeoutMs = 300;
    const { adapter, lines } = adapterThrough(proxy.url, closeTimeoutMs);
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
