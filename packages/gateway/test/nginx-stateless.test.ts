import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  counterServerConfig,
  createTempDirectory,
  readCounterState,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { startGateway, startNginx, stopProcess, type RunningGateway, type RunningNginx } from "./balancer.js";

// Two gateway processes behind a real nginx (the config of docs/gateway.md), serving 2026-07-28
// clients statelessly: no affinity, every request round-robin. Upstream is the counter server over
// stdio (one copy per gateway, one shared state directory), which records every read (with the pid
// of the copy that ran it) and every write (with the caller's id): the counts are taken there.
let state: TempDirectory;
const gateways: RunningGateway[] = [];
let nginx: RunningNginx | undefined;

beforeAll(async () => {
  state = await createTempDirectory("gateway-stateless-");
  const configFile = join(state.path, "mcp.json");
  await writeFile(configFile, JSON.stringify({ mcpServers: { counter: counterServerConfig(state.path) } }));
  gateways.push(...(await Promise.all([startGateway(configFile, "g1"), startGateway(configFile, "g2")])));
  nginx = await startNginx(
    gateways.map((gateway) => gateway.port),
    state.path,
  );
}, 180_000);

afterAll(async () => {
  await stopProcess(nginx?.process);
  await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
  // A gateway killed with SIGKILL leaves its counter server to notice its closed stdin; make sure.
  for (const pid of readCounterState(state.path).starts) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await state.remove();
}, 60_000);

function pidOf(text: unknown): number | undefined {
  const match = /"pid\\?":(\d+)/.exec(JSON.stringify(text));
  return match === null ? undefined : Number(match[1]);
}

describe("2026-07-28 clients through nginx to two stateless gateways", () => {
  it("spreads the v2 client's calls over both gateways and loses none", { timeout: 120_000 }, async () => {
    const client = new Client(
      { name: "v2-balanced", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(nginx?.url ?? "")));
    try {
      const readsBefore = readCounterState(state.path).reads.length;
      const answers: (number | undefined)[] = [];
      for (let call = 0; call < 20; call += 1) {
        const result = await client.callTool({ name: "whoami", arguments: {} });
        answers.push(pidOf(result.content));
      }
      expect(answers.every((pid) => pid !== undefined)).toBe(true);
      // Round-robin with no affinity: both gateways' upstream copies answered.
      expect(new Set(answers).size).toBe(2);
      // Counted upstream: every call ran exactly once.
      expect(readCounterState(state.path).reads.length - readsBefore).toBe(20);
    } finally {
      await client.close();
    }
  });

  it(
    "retries the read-only calls a killed gateway cut off, never repeats a write, and loses nothing after the kill",
    { timeout: 180_000 },
    async () => {
      const adapter = new MCPToolAdapter(
        { name: "gateway", transport: "streamable-http", url: nginx?.url ?? "", protocol: "2026-07-28" },
        { engine: createEngine2026(), recovery: { maxAttempts: 10, initialDelayMs: 50 }, defaultTimeoutMs: 60_000 },
      );
      await adapter.connect();
      try {
        const { starts } = readCounterState(state.path);
        const readsBefore = readCounterState(state.path).reads.length;
        const slowReads = Array.from({ length: 8 }, () => adapter.invoke("whoami", { delayMs: 4000 }));
        const slowWrites = Array.from({ length: 8 }, (_, index) =>
          adapter.invoke("increment", { id: `in-flight-${index}`, delayMs: 2000 }),
        );
        // Kill the first gateway once both upstream copies are running reads: calls are in flight on both.
        const end = Date.now() + 60_000;
        while (new Set(readCounterState(state.path).reads.slice(readsBefore)).size < 2) {
          if (Date.now() > end) throw new Error("the reads did not reach both gateways");
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        const victim = gateways[0];
        const exited = new Promise((resolve) => victim?.process.once("exit", resolve));
        victim?.process.kill("SIGKILL");
        // "After the kill": once the process is gone (until then a request may still reach it and be cut off).
        await exited;
        const after = [
          ...Array.from({ length: 8 }, () => adapter.invoke("whoami", {})),
          ...Array.from({ length: 8 }, (_, index) => adapter.invoke("increment", { id: `after-${index}` })),
        ];
        const reads = await Promise.all(slowReads);
        const writes = await Promise.all(slowWrites);
        const later = await Promise.all(after);
        const counted = readCounterState(state.path);
        const readPids = counted.reads.slice(readsBefore).filter((pid) => starts.includes(pid));

        // Every read-only call answered, also those in flight on the killed gateway (sent again).
        for (const result of [...reads, ...later.slice(0, 8)]) expect(result.success, result.error ?? "").toBe(true);
        // Reads reached both upstream copies before the kill, and the ones cut off ran again on the
        // copy that is up: counted upstream, more reads ran than were asked for.
        expect(new Set(readPids).size).toBe(2);
        expect(counted.reads.length - readsBefore).toBeGreaterThan(16);
        // Every write ran at most once; every write reported done ran exactly once.
        for (const [index, result] of writes.entries()) {
          const runs = counted.writes.filter((id) => id === `in-flight-${index}`).length;
          if (result.success) expect(runs).toBe(1);
          else {
            expect(runs).toBeLessThanOrEqual(1);
            expect(result.errorKind).toBe("outcome_unknown");
          }
        }
        // A write cut off by the kill was not sent again: at least one came back as outcome unknown.
        expect(writes.some((result) => !result.success)).toBe(true);
        // After the kill nginx sends everything to the gateway that is up: nothing is lost.
        for (const [index, result] of later.slice(8).entries()) {
          expect(result.success, result.error ?? "").toBe(true);
          expect(counted.writes.filter((id) => id === `after-${index}`)).toHaveLength(1);
        }
      } finally {
        await adapter.disconnect();
      }
    },
  );
});
