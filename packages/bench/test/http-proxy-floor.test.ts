import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectNoLeakedProcesses, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import type { CpuReport } from "../src/gateway/call-job.js";
import { runCallWorker, startHttpFloor } from "../src/gateway/run-processes.js";

// The gateway bench's HTTP proxy floor (issue 34): a bare Node process must really carry a 2025-era
// client's session and calls to server-everything and back, under session ids and request ids of its
// own, answering as the gateway does, and report its CPU by phase like the other middles, or the
// "any Node process in the middle" figures over HTTP mean nothing.

afterEach(async () => {
  await expectNoLeakedProcesses();
});

const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("the HTTP proxy floor", () => {
  it("carries a real client's echo calls to server-everything and reports its CPU at each phase", async () => {
    const http = await startEverythingHttp({ mode: "streamableHttp" });
    const folder = await mkdtemp(join(tmpdir(), "http-proxy-floor-test-"));
    try {
      const cpuReportPath = join(folder, "cpu.json");
      const floor = await startHttpFloor({ upstreamUrl: http.url, cpuReportPath });
      try {
        expect(new URL(floor.url).port).not.toBe(new URL(http.url).port);
        const result = await runCallWorker({
          target: { kind: "http", url: floor.url, pid: floor.pid },
          warmupCalls: 3,
          sequentialCalls: 5,
          concurrentCalls: 10,
          inFlight: 5,
          markPhases: true,
        });
        expect(result.p50Us).toBeGreaterThan(0);
        expect(result.inFlightP50Us).toBeGreaterThan(0);
      } finally {
        await floor.stop();
      }
      const report = JSON.parse(await readFile(cpuReportPath, "utf8")) as CpuReport;
      expect(report.phaseEndsUs).toHaveLength(3);
      expect(report.cpuUs).toBeGreaterThanOrEqual(report.phaseEndsUs[2]!);
    } finally {
      await rm(folder, { recursive: true, force: true });
      await http.stop();
    }
  });

  it("hands out its own session id, gives the client's request id back, and answers one JSON body", async () => {
    const http = await startEverythingHttp({ mode: "streamableHttp" });
    try {
      const floor = await startHttpFloor({ upstreamUrl: http.url });
      try {
        const initialize = await fetch(floor.url, {
          method: "POST",
          headers: POST_HEADERS,
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: "init-1",
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } },
          }),
        });
        const session = initialize.headers.get("mcp-session-id");
        expect(session).toMatch(/^floor-\d+$/);
        expect(((await initialize.json()) as { id: unknown }).id).toBe("init-1");
        const call = await fetch(floor.url, {
          method: "POST",
          headers: { ...POST_HEADERS, "mcp-session-id": session as string },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 41,
            method: "tools/call",
            params: { name: "echo", arguments: { message: "through the floor" } },
          }),
        });
        expect(call.headers.get("content-type")).toBe("application/json");
        expect(await call.json()).toEqual({
          jsonrpc: "2.0",
          id: 41,
          result: { content: [{ type: "text", text: "Echo: through the floor" }] },
        });
        const unknown = await fetch(floor.url, {
          method: "POST",
          headers: { ...POST_HEADERS, "mcp-session-id": "floor-unknown" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        expect(unknown.status).toBe(404);
      } finally {
        await floor.stop();
      }
    } finally {
      await http.stop();
    }
  });
});
