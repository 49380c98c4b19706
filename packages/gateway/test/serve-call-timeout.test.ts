import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CLI_BIN, GATEWAY_DIR, realUpstreams, type Upstreams } from "./fixtures.js";

// `serve --call-timeout`: the deadline of each upstream call (the server set's callTimeoutMs). A
// call that outlives it ends as the client's error result, and the upstream serves the next one.
// One upstream: the gateway keeps its tool names as they are.
let upstreams: Upstreams;

beforeAll(async () => {
  upstreams = await realUpstreams(["everything"]);
}, 120_000);

afterAll(async () => {
  await upstreams.remove();
}, 60_000);

describe("serve --call-timeout", () => {
  it(
    "ends an upstream call at the deadline as an error result, and the next call works",
    { timeout: 120_000 },
    async () => {
      const client = new Client(
        { name: "call-timeout", version: "1.0.0" },
        { capabilities: {}, versionNegotiation: { mode: "legacy" } },
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [CLI_BIN, "serve", "--config", upstreams.configFile, "--call-timeout", "500"],
          cwd: GATEWAY_DIR,
          stderr: "ignore",
        }),
      );
      try {
        const started = performance.now();
        const slow = await client.callTool(
          { name: "trigger-long-running-operation", arguments: { duration: 30, steps: 1 } },
          { timeout: 60_000 },
        );
        const elapsed = performance.now() - started;
        expect(slow.isError).toBe(true);
        expect(JSON.stringify(slow.content)).toMatch(/timed out|timeout/i);
        // 500 ms, and room for a busy machine; without the flag the call would last its 30 s.
        expect(elapsed).toBeGreaterThanOrEqual(450);
        expect(elapsed).toBeLessThan(15_000);
        const echo = await client.callTool({ name: "echo", arguments: { message: "after the deadline" } });
        expect(JSON.stringify(echo.content)).toContain("after the deadline");
      } finally {
        await client.close();
      }
    },
  );
});
