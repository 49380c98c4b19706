import { writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { createEngine2026 } from "@mcp-tool-adapter/engine-2026";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  counterServerConfig,
  createTempDirectory,
  listDescendantProcesses,
  readCounterState,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { killCopy, startGateway, stopProcess, type RunningGateway } from "./balancer.js";

// A client talking to two gateway copies directly, with no balancer in between: it knows both
// addresses and connects to the first that accepts a connection (as a client does with a name that
// resolves to two addresses). When its copy dies mid-run it sees a network error (a reset
// connection, not an HTTP 502), and its own policy decides: read-only calls are sent again over a
// new session on the other copy, writes come back `outcome_unknown`, nothing runs twice. The
// upstream is the counter server (one per copy, one shared state directory): the counts are taken there.
let state: TempDirectory;
const gateways: RunningGateway[] = [];

beforeAll(async () => {
  state = await createTempDirectory("gateway-direct-");
  const configFile = join(state.path, "mcp.json");
  await writeFile(configFile, JSON.stringify({ mcpServers: { counter: counterServerConfig(state.path) } }));
  gateways.push(...(await Promise.all([startGateway(configFile, "g1"), startGateway(configFile, "g2")])));
}, 180_000);

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => stopProcess(gateway.process)));
  for (const pid of readCounterState(state.path).starts) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await state.remove();
}, 60_000);

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The first copy, in order, that accepts a TCP connection now; the URLs the client tried, in order. */
async function firstLiveCopy(tried: string[]): Promise<URL> {
  for (const gateway of gateways) {
    const url = `http://127.0.0.1:${gateway.port}/mcp`;
    tried.push(url);
    if (await accepts(gateway.port)) return new URL(url);
  }
  throw new Error("no gateway copy accepts connections");
}

function upstreamPidOf(gateway: RunningGateway | undefined): number {
  const pids = readCounterState(state.path).starts;
  const child = listDescendantProcesses(gateway?.process.pid ?? -1).find((info) => pids.includes(info.pid));
  if (child === undefined) throw new Error("the gateway copy runs no counter server");
  return child.pid;
}

// 2026-07-28 (stateless, the mode that scales by copies). A 2025-era client over the SDK 1.x
// transport does not see a reset of a call's response stream as a failure (the transport reports
// it through onerror and the call waits for its timeout): see docs/gateway.md.
const protocol = "2026-07-28";

describe("a 2026-07-28 client talking directly to two gateway copies, one killed mid-run", () => {
  it(
    "sends the cut-off reads again on the other copy, reports the cut-off writes as outcome_unknown, runs nothing twice",
    { timeout: 180_000 },
    async () => {
      const [victim, survivor] = gateways;
      const victimUpstream = upstreamPidOf(victim);
      const survivorUpstream = upstreamPidOf(survivor);
      const tried: string[] = [];
      const adapter = new MCPToolAdapter(
        { name: "gateway", transport: "streamable-http", url: `http://127.0.0.1:${victim?.port}/mcp`, protocol },
        {
          // The SDK v2 client transport, made on every connect (the first and each one after the
          // connection was lost) for the first copy that accepts connections.
          engine: createEngine2026({
            transport: async () => new StreamableHTTPClientTransport(await firstLiveCopy(tried)),
          }),
          recovery: { maxAttempts: 10, initialDelayMs: 50 },
          defaultTimeoutMs: 60_000,
        },
      );
      await adapter.connect();
      try {
        const readsBefore = readCounterState(state.path).reads.length;
        const writeIds = Array.from({ length: 6 }, (_, index) => `cut-${index}`);
        const slowReads = Array.from({ length: 6 }, () => adapter.invoke("whoami", { delayMs: 4000 }));
        const slowWrites = writeIds.map((id) => adapter.invoke("increment", { id, delayMs: 4000 }));
        // Kill the copy once every call reached its upstream (all on the first copy: one session).
        const end = Date.now() + 90_000;
        for (;;) {
          const counted = readCounterState(state.path);
          const reads = counted.reads.slice(readsBefore).length;
          const writes = counted.writeStarts.filter((start) => writeIds.includes(start.id)).length;
          if (reads === 6 && writes === 6) break;
          if (Date.now() > end)
            throw new Error(`the calls did not reach the upstream (${reads} reads, ${writes} writes)`);
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        await killCopy(victim!);
        const reads = await Promise.all(slowReads);
        const writes = await Promise.all(slowWrites);
        const later = [await adapter.invoke("whoami", {}), await adapter.invoke("increment", { id: "after-kill" })];
        const counted = readCounterState(state.path);

        // Every read answered, by the copy that is up: sent again there by the client's policy.
        for (const result of reads) {
          expect(result.success, result.error ?? "").toBe(true);
          expect(JSON.stringify(result.data)).toContain(String(survivorUpstream));
        }
        const readPids = counted.reads.slice(readsBefore);
        expect(readPids.filter((pid) => pid === victimUpstream)).toHaveLength(6);
        expect(readPids.filter((pid) => pid === survivorUpstream).length).toBeGreaterThanOrEqual(6);
        // Every write cut off: not answered, reported as outcome unknown, never sent again.
        for (const [index, result] of writes.entries()) {
          const id = writeIds[index] ?? "";
          expect(
            result.success,
            `${id}: ${JSON.stringify({ starts: counted.writeStarts, writes: counted.writes, tried, victimUpstream })}`,
          ).toBe(false);
          expect(result.errorKind, result.error ?? "").toBe("outcome_unknown");
          expect(
            counted.writeStarts.filter((start) => start.id === id),
            id,
          ).toEqual([{ id, pid: victimUpstream }]);
          expect(
            counted.writes.filter((write) => write === id),
            id,
          ).toEqual([]);
        }
        // The client saw the first copy refuse and moved on; later calls run once on the other copy.
        expect(tried.filter((url) => url.endsWith(`:${survivor?.port}/mcp`)).length).toBeGreaterThan(0);
        for (const result of later) expect(result.success, result.error ?? "").toBe(true);
        expect(counted.writes.filter((write) => write === "after-kill")).toEqual(["after-kill"]);
      } finally {
        await adapter.disconnect();
      }
    },
  );
});
