import {
  deletesSeenBy,
  sessionFaultPlan,
  sessionsSeenBy,
  startEverythingHttp,
  startFaultHttpServer,
  startRecordingProxy,
  type EverythingHttpServer,
} from "@mcp-tool-adapter/test-servers";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPServerSet } from "../src/index.js";

// What the gateway and `serve` close their upstreams through: a server set's close() ends every
// 2025-era streamable HTTP session it opened with a DELETE, on the default engine and engine-2026.

let everything: EverythingHttpServer;

beforeAll(async () => {
  everything = await startEverythingHttp({ mode: "streamableHttp" });
});
afterAll(async () => {
  await everything.stop();
});

describe("MCPServerSet close() and streamable HTTP sessions", () => {
  it("ends each server's session with one DELETE", async () => {
    const [plain, modern] = await Promise.all([
      startRecordingProxy(everything.url),
      startRecordingProxy(everything.url),
    ]);
    const set = new MCPServerSet(
      {
        plain: { transport: "streamable-http", url: plain.url },
        modern: { transport: "streamable-http", url: modern.url, protocol: "auto" },
      },
      {
        auth: { storedLogins: false },
        engine: (_config, { serverName }) => (serverName === "modern" ? createEngine2026() : undefined),
      },
    );
    try {
      expect((await set.connect()).ok).toBe(true);
    } finally {
      await set.close();
      await Promise.all([plain.close(), modern.close()]);
    }
    for (const proxy of [plain, modern]) {
      const sessions = sessionsSeenBy(proxy);
      expect(sessions).toHaveLength(1);
      expect(deletesSeenBy(proxy)).toEqual([{ sessionId: sessions[0], status: 200 }]);
    }
  });

  it("a DELETE that never answers costs the close no more than the set's closeTimeoutMs, and is no failure", async () => {
    // Below the adapter's own default (5 s): the set hands its budget to the adapter, whose DELETE
    // and close share it, so the set's own timer (a little later) never reports SERVER_TIMEOUT.
    const server = await startFaultHttpServer(sessionFaultPlan("set-session", { kind: "hang" }));
    const set = new MCPServerSet(
      { stuck: { transport: "streamable-http", url: server.url } },
      { auth: { storedLogins: false }, closeTimeoutMs: 400 },
    );
    try {
      expect((await set.connect()).ok).toBe(true);
      expect(await set.close()).toEqual({ closed: ["stuck"], failed: [] });
      expect(server.requests.filter((request) => request.method === "DELETE")).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
