import { leakMarkerEnv } from "@mcp-tool-adapter/test-servers";
import type { BenchContext } from "../context.js";
import { atMost, exactly, single, type Figure, type TargetVerdict } from "../figures.js";
import { buildPeerBundles } from "../peers/build-peer-worker.js";
import { median } from "../stats.js";
import { runWorker } from "../workers/run-worker.js";
import type { ServerSetJob, ServerSetResult } from "../workers/server-set-worker.js";

/** Issue 36's targets for many servers at once. */
const PARALLEL_CONNECT_LIMIT = 1.3;
const IDLE_HEAP_PER_SERVER_LIMIT_MB = 1;
const CLOSE_WITH_FAMILIES_LIMIT_MS = 1_000;
/**
 * Each server's connect deadline, for the bench only: twenty processes starting at once on a
 * loaded two-core machine can pass the 30 s default, and a timeout leaves no figure at all.
 */
const BENCH_CONNECT_TIMEOUT_MS = 180_000;

/** `value ≤ limit × reference`, with the reference named in the target's text. */
const timesAtMost =
  (limit: number, reference: string) =>
  (value: number): TargetVerdict => ({ text: `≤ ${limit} × ${reference}`, pass: value <= limit });

/**
 * Many servers at once (issue 36): an MCPServerSet of `serverSetServers` stdio servers (the
 * bundled light server: the generated tools without an SDK to load, each leaving a helper process
 * running), in a fresh process per round.
 */
export async function runServerSetScenario(context: BenchContext): Promise<Figure[]> {
  const { settings } = context;
  const group = `server set: ${settings.serverSetServers} stdio servers at once`;
  const bundles = await buildPeerBundles();
  const job: ServerSetJob = {
    command: process.execPath,
    args: [bundles.lightServer, `--tools=${settings.serverSetToolsPerServer}`, "--grandchild"],
    env: leakMarkerEnv(),
    servers: settings.serverSetServers,
    calls: settings.serverSetCalls,
    inFlight: settings.inFlight,
    connectTimeoutMs: BENCH_CONNECT_TIMEOUT_MS,
  };
  const results: ServerSetResult[] = [];
  for (let round = 0; round < settings.serverSetRounds; round += 1) {
    context.progress(`${group}: round ${round + 1} of ${settings.serverSetRounds}`);
    const result = await runWorker<ServerSetResult>("server-set-worker.ts", job, { nodeArgs: ["--expose-gc"] });
    const expected = settings.serverSetServers * settings.serverSetToolsPerServer;
    if (result.toolCount !== expected)
      throw new Error(`${group}: registered ${result.toolCount} tools, expected ${expected}`);
    results.push(result);
  }
  const pick = (read: (result: ServerSetResult) => number): number => median(results.map(read));
  const slowestMember = pick((r) => Math.max(...r.memberConnectMs));
  const slowestSolo = pick((r) => Math.max(...r.soloConnectMs));
  const parallel = pick((r) => r.parallelConnectMs);
  const perServerHeap = pick((r) => (r.heapConnectedMb - r.heapBeforeMb) / settings.serverSetServers);
  const method = `${settings.serverSetRounds} round(s), a fresh process each (our packages from TypeScript source under tsx; the servers the bundled light server on plain node), median over the rounds`;
  return [
    single({
      id: "server-set.connect.parallel",
      group,
      label: "connect all in parallel (wall)",
      unit: "ms",
      value: parallel,
      note: method,
    }),
    single({
      id: "server-set.connect.parallel.cpu",
      group,
      label: "client CPU of that parallel connect, per server",
      unit: "ms",
      value: pick((r) => r.parallelConnectCpuMs / settings.serverSetServers),
      note: "this process's own CPU (spawn, handshake, listing, registration) divided by the servers: the servers' start-up is theirs",
    }),
    single({
      id: "server-set.connect.slowest-member",
      group,
      label: "slowest server's own connect inside that parallel connect",
      unit: "ms",
      value: slowestMember,
    }),
    single(
      {
        id: "server-set.connect.parallel-over-slowest",
        group,
        label: "parallel connect / slowest server's connect in it",
        unit: "×",
        value: pick((r) => r.parallelConnectMs / Math.max(...r.memberConnectMs)),
        note: "what the set adds on top of its slowest member: 1.0 when the servers really connect side by side",
      },
      timesAtMost(PARALLEL_CONNECT_LIMIT, "the slowest member"),
    ),
    single({
      id: "server-set.connect.solo",
      group,
      label: "slowest single connect, each server alone",
      unit: "ms",
      value: slowestSolo,
      note: `median alone: ${pick((r) => median([...r.soloConnectMs])).toFixed(1)} ms; on a machine with fewer cores than servers the parallel connect cannot stay near this, as every server starts a node process`,
    }),
    single({
      id: "server-set.connect.parallel-over-solo",
      group,
      label: "parallel connect / slowest single connect alone",
      unit: "×",
      value: pick((r) => r.parallelConnectMs / Math.max(...r.soloConnectMs)),
    }),
    single(
      {
        id: "server-set.heap-per-server",
        group,
        label: "idle live heap per connected server",
        unit: "MB",
        value: perServerHeap,
        note: "heap after full GCs with every server connected and idle, less the heap before connecting, divided by the servers",
      },
      atMost(IDLE_HEAP_PER_SERVER_LIMIT_MB, "MB"),
    ),
    single({
      id: "server-set.calls.throughput",
      group,
      label: `${settings.serverSetCalls} calls spread over every server, ${settings.inFlight} in flight`,
      unit: "calls/s",
      value: pick((r) => r.callsPerSecond),
      note: "registry.call round-robin over the servers' first tools",
    }),
    single({
      id: "server-set.calls.cpu",
      group,
      label: "client CPU per call, spread over every server",
      unit: "µs",
      value: pick((r) => r.cpuMicrosPerCall),
    }),
    single({
      id: "server-set.close",
      group,
      label: "close() with every server running",
      unit: "ms",
      value: pick((r) => r.closeMs),
    }),
    single(
      {
        id: "server-set.close.families-gone",
        group,
        label: "from close() until no server or helper process is left",
        unit: "ms",
        value: pick((r) => r.familiesGoneMs),
        note: "each server leaves a helper process running; polled every 5 ms over /proc",
      },
      atMost(CLOSE_WITH_FAMILIES_LIMIT_MS, "ms"),
    ),
    single(
      {
        id: "server-set.close.processes-left",
        group,
        label: "processes left 10 s after close()",
        unit: "count",
        value: Math.max(...results.map((r) => r.processesLeft)),
      },
      exactly(0, "none"),
    ),
  ];
}
