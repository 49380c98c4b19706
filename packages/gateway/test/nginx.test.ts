import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startGateway, startNginx, stopProcess, type RunningGateway, type RunningNginx } from "./balancer.js";
import { realUpstreams, type Upstreams } from "./fixtures.js";

// Two `mcp-tool-adapter serve --http` processes behind a real nginx, with the config of
// docs/gateway.md: each gateway starts its session ids with its own prefix (--session-prefix),
// nginx sends a request with a session id to the gateway its prefix names and an initialize (no id
// yet) round-robin, so 2025-era sessions stay on the gateway that opened them and spread over both.
let upstreams: Upstreams;
const gateways: RunningGateway[] = [];
let nginx: RunningNginx | undefined;

describe("two gateways behind nginx", () => {
  beforeAll(async () => {
    upstreams = await realUpstreams(["everything", "memory"]);
    gateways.push(
      ...(await Promise.all([startGateway(upstreams.configFile, "g1"), startGateway(upstreams.configFile, "g2")])),
    );
    nginx = await startNginx(
      gateways.map((gateway) => gateway.port),
      upstreams.directory.path,
    );
  }, 180_000);

  afterAll(async () => {
    await stopProcess(nginx?.process);
    await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
    await upstreams.remove();
  }, 60_000);

  it("keeps every 2025-era session on its gateway and spreads sessions over both", { timeout: 180_000 }, async () => {
    const clients = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const client = new Client({ name: `balanced-${index}`, version: "1" });
        await client.connect(new StreamableHTTPClientTransport(new URL(nginx?.url ?? "")));
        return client;
      }),
    );
    try {
      const results = await Promise.all(
        clients.flatMap((client, index) =>
          Array.from({ length: 5 }, async (_, call) => {
            const result = await client.callTool({
              name: "everything__echo",
              arguments: { message: `c${index}-${call}` },
            });
            return JSON.stringify(result.content).includes(`c${index}-${call}`);
          }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(60);
      const opened = gateways.map((gateway) => gateway.log.filter((line) => line.includes("HTTP session")).length);
      expect(opened[0]).toBeGreaterThan(0);
      expect(opened[1]).toBeGreaterThan(0);
      expect((opened[0] ?? 0) + (opened[1] ?? 0)).toBe(12);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
