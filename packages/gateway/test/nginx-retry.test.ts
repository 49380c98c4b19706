import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  counterServerConfig,
  createTempDirectory,
  listDescendantProcesses,
  readCounterState,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { killCopy, startGateway, startNginx, stopProcess, type RunningGateway, type RunningNginx } from "./balancer.js";

// nginx's own retry, with the config of docs/gateway.md (`proxy_next_upstream error timeout`, which
// leaves out `non_idempotent`): a request that could not reach a copy (connection refused: the copy
// is down) is passed to the other copy by nginx itself, and a POST that did reach a copy is never
// sent again. The client here is the v2 SDK's (2026-07-28, stateless): it does not retry at all, so
// whatever was sent twice was sent by nginx. The counts are taken on the upstream counter servers.
let state: TempDirectory;
const gateways: RunningGateway[] = [];
let nginx: RunningNginx | undefined;

beforeAll(async () => {
  state = await createTempDirectory("gateway-nginx-retry-");
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
  for (const pid of readCounterState(state.path).starts) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await state.remove();
}, 60_000);

async function connectClient(name: string): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(nginx?.url ?? "")));
  return client;
}

/** The pid of the counter server a gateway copy runs (its one upstream). */
function upstreamPidOf(gateway: RunningGateway | undefined): number {
  const pids = readCounterState(state.path).starts;
  const child = listDescendantProcesses(gateway?.process.pid ?? -1).find((info) => pids.includes(info.pid));
  if (child === undefined) throw new Error("the gateway copy runs no counter server");
  return child.pid;
}

async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

describe("nginx's own retry in front of two gateway copies", () => {
  it(
    "does not send again a write that reached a copy which then died (nginx's non_idempotent rule)",
    { timeout: 180_000 },
    async () => {
      const client = await connectClient("no-retry-writes");
      try {
        const victim = gateways[0];
        const victimUpstream = upstreamPidOf(victim);
        const survivorUpstream = upstreamPidOf(gateways[1]);
        // Round-robin: the writes spread over both copies. Each waits 4 s before it counts.
        const ids = Array.from({ length: 6 }, (_, index) => `cut-${index}`);
        const writes = ids.map((id) =>
          settle(client.callTool({ name: "increment", arguments: { id, delayMs: 4000 } })),
        );
        const end = Date.now() + 90_000;
        while (readCounterState(state.path).writeStarts.filter((start) => ids.includes(start.id)).length < ids.length) {
          if (Date.now() > end) throw new Error("the writes did not all reach an upstream");
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        const reached = readCounterState(state.path).writeStarts.filter((start) => ids.includes(start.id));
        const onVictim = reached.filter((start) => start.pid === victimUpstream).map((start) => start.id);
        expect(onVictim.length).toBeGreaterThan(0);
        // The copy dies while they wait: before any of them counted.
        await killCopy(victim!);
        const outcomes = await Promise.all(writes);
        const counted = readCounterState(state.path);
        for (const [index, id] of ids.entries()) {
          const starts = counted.writeStarts.filter((start) => start.id === id);
          // Reached exactly one copy: nginx never passed it on, whatever happened to that copy.
          expect(starts, id).toHaveLength(1);
          if (onVictim.includes(id)) {
            // Cut off with its copy: not run, and the client is told (nginx's 502), not answered.
            expect(outcomes[index]?.ok, id).toBe(false);
            expect(
              counted.writes.filter((write) => write === id),
              id,
            ).toEqual([]);
          } else {
            expect(starts[0]?.pid, id).toBe(survivorUpstream);
            expect(outcomes[index]?.ok, id).toBe(true);
            expect(
              counted.writes.filter((write) => write === id),
              id,
            ).toEqual([id]);
          }
        }
        const errorLog = await readFile(join(state.path, "nginx-error.log"), "utf8");
        expect(errorLog).toMatch(/upstream prematurely closed connection|Connection reset by peer/);
      } finally {
        await client.close();
      }
    },
  );

  it(
    "passes a call that found a copy down to the other copy, with no retry by the client",
    { timeout: 120_000 },
    async () => {
      // The first copy is down since the test before. A fresh nginx (the same config, both copies
      // in its upstream block) has not seen it fail yet: the running one marked it unavailable.
      await stopProcess(nginx?.process);
      const logBefore = (await readFile(join(state.path, "nginx-error.log"), "utf8")).length;
      nginx = await startNginx(
        gateways.map((gateway) => gateway.port),
        state.path,
      );
      const survivorUpstream = upstreamPidOf(gateways[1]);
      const client = await connectClient("no-retry-calls");
      try {
        const readsBefore = readCounterState(state.path).reads.length;
        const ids = Array.from({ length: 6 }, (_, index) => `after-down-${index}`);
        for (const id of ids) {
          const read = await client.callTool({ name: "whoami", arguments: {} });
          expect(JSON.stringify(read.content)).toContain(String(survivorUpstream));
          const write = await client.callTool({ name: "increment", arguments: { id } });
          expect(write.isError, id).not.toBe(true);
        }
        const counted = readCounterState(state.path);
        // Every call ran once, on the copy that is up.
        expect(counted.reads.slice(readsBefore)).toEqual(ids.map(() => survivorUpstream));
        for (const id of ids) {
          expect(
            counted.writeStarts.filter((start) => start.id === id),
            id,
          ).toEqual([{ id, pid: survivorUpstream }]);
          expect(
            counted.writes.filter((write) => write === id),
            id,
          ).toEqual([id]);
        }
        // It was nginx that moved them: it tried the dead copy, was refused, and took the next.
        const errorLog = (await readFile(join(state.path, "nginx-error.log"), "utf8")).slice(logBefore);
        expect(errorLog).toMatch(/connect\(\) failed \(111: Connection refused\)/);
      } finally {
        await client.close();
      }
    },
  );
});
