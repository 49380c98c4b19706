import { expectNoLeakedProcesses, startEverythingHttp } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { findNginx, startHopFloor } from "../src/gateway/http-hop-floor.js";
import { runCallWorker } from "../src/gateway/run-processes.js";

// The gateway bench's HTTP hop floor (issue 34): nginx must really carry a 2025-era client's
// session and calls to server-everything and back, and leave nothing running, or the "hop alone"
// figures over HTTP mean nothing. Without nginx the side is skipped.

afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("the HTTP hop floor", () => {
  it("carries a real client's echo calls to server-everything through nginx, and stops", async (context) => {
    const nginx = findNginx();
    if (nginx === undefined) return context.skip("nginx is not installed");
    const http = await startEverythingHttp({ mode: "streamableHttp" });
    try {
      const hop = await startHopFloor(nginx, http.url);
      try {
        expect(new URL(hop.url).port).not.toBe(new URL(http.url).port);
        const result = await runCallWorker({
          target: { kind: "http", url: hop.url },
          warmupCalls: 3,
          sequentialCalls: 5,
          concurrentCalls: 10,
          inFlight: 5,
        });
        expect(result.p50Us).toBeGreaterThan(0);
        expect(result.inFlightP50Us).toBeGreaterThan(0);
      } finally {
        await hop.stop();
      }
    } finally {
      await http.stop();
    }
  });
});
