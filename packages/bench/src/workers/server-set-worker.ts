/**
 * Many servers at once (issue 36), in a process of its own: an MCPServerSet of N stdio servers,
 * each of which leaves a helper process running. First each server alone (one after another),
 * then all of them connected in parallel, the heap they hold while idle, calls spread over all
 * of them, and closing the set with every server running, until no process of any family is left.
 */
import { listOwnedProcesses } from "@mcp-tool-adapter/test-servers";
import { heapAfterGcMb } from "./memory.js";
import type { RunCommand } from "./run-worker.js";
import { serveIpcCommands } from "./serve-ipc-commands.js";
import { workerInput } from "./worker-io.js";

export interface ServerSetJob {
  /** How each server is started (the bundled generated server with --grandchild). */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly servers: number;
  /** Calls spread round-robin over every server's tools, `inFlight` at a time. */
  readonly calls: number;
  readonly inFlight: number;
  /** Each server's connect deadline (the set's connectTimeoutMs). */
  readonly connectTimeoutMs: number;
}

export interface ServerSetResult {
  /** Each server connected alone (a set of one: spawn, handshake, list, register), one after another. */
  readonly soloConnectMs: readonly number[];
  /** connect() of the whole set, all servers in parallel. */
  readonly parallelConnectMs: number;
  /** This process's CPU during that parallel connect (spawns, handshakes, listings, registration). */
  readonly parallelConnectCpuMs: number;
  /** Each server's own connect-and-register time inside that parallel connect (the set's report). */
  readonly memberConnectMs: readonly number[];
  /** Live heap after full GCs before the parallel connect, and with every server connected and idle. */
  readonly heapBeforeMb: number;
  readonly heapConnectedMb: number;
  readonly callsPerSecond: number;
  readonly cpuMicrosPerCall: number;
  /** close() of the set with every server running. */
  readonly closeMs: number;
  /** From the start of close() until no server and no process of their families is alive. */
  readonly familiesGoneMs: number;
  /** Processes still alive when the worker gave up waiting (0 unless something leaked). */
  readonly processesLeft: number;
  readonly toolCount: number;
}

const FAMILY_WAIT_MS = 10_000;
const POLL_MS = 5;

async function measure(job: ServerSetJob): Promise<ServerSetResult> {
  const { MCPServerSet } = await import("mcp-tool-adapter");
  const preexisting = new Set(listOwnedProcesses().map((info) => info.pid));
  const names = Array.from({ length: job.servers }, (_, index) => `server${index}`);
  const entry = { transport: "stdio" as const, command: job.command, args: [...job.args], env: { ...job.env } };
  const options = { connectTimeoutMs: job.connectTimeoutMs };

  const soloConnectMs: number[] = [];
  for (const name of names) {
    const solo = new MCPServerSet({ [name]: entry }, options);
    const started = performance.now();
    const report = await solo.connect();
    soloConnectMs.push(performance.now() - started);
    await solo.close();
    if (!report.ok)
      throw new Error(`server set bench: ${name} did not connect alone: ${JSON.stringify(report.servers[0]?.error)}`);
  }

  const set = new MCPServerSet(Object.fromEntries(names.map((name) => [name, entry])), options);
  const heapBeforeMb = await heapAfterGcMb();
  const connectCpu = process.cpuUsage();
  const connectStarted = performance.now();
  const report = await set.connect();
  const parallelConnectMs = performance.now() - connectStarted;
  const connectSpent = process.cpuUsage(connectCpu);
  if (!report.ok) {
    const failures = report.servers
      .filter((server) => server.status === "failed")
      .map((server) => `${server.name} (${server.stage ?? "?"}): ${server.error?.message ?? "no error given"}`);
    throw new Error(
      `server set bench: ${report.failed.length} server(s) failed to connect in parallel: ${failures.join("; ")}`,
    );
  }
  const heapConnectedMb = await heapAfterGcMb();

  // Each server's first tool, round-robin: every call goes to the next server.
  const targets = report.servers.map((server) => server.tools[0]!);
  let started = 0;
  const lane = async (): Promise<void> => {
    while (started < job.calls) {
      const name = targets[started % targets.length]!;
      started += 1;
      const result = await set.registry.call(name, { query: "many servers" });
      if (!result.success) throw new Error(`server set bench: ${name} failed: ${result.error ?? "no reason given"}`);
    }
  };
  const cpu = process.cpuUsage();
  const callsStarted = performance.now();
  await Promise.all(Array.from({ length: Math.min(job.inFlight, job.calls) }, lane));
  const callSeconds = (performance.now() - callsStarted) / 1000;
  const spent = process.cpuUsage(cpu);

  const closeStarted = performance.now();
  await set.close();
  const closeMs = performance.now() - closeStarted;
  const alive = (): number => listOwnedProcesses().filter((info) => !preexisting.has(info.pid)).length;
  let processesLeft = alive();
  while (processesLeft > 0 && performance.now() - closeStarted < FAMILY_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    processesLeft = alive();
  }
  return {
    soloConnectMs,
    parallelConnectMs,
    parallelConnectCpuMs: (connectSpent.user + connectSpent.system) / 1000,
    memberConnectMs: report.servers.map((server) => server.durationMs),
    heapBeforeMb,
    heapConnectedMb,
    callsPerSecond: job.calls / callSeconds,
    cpuMicrosPerCall: (spent.user + spent.system) / job.calls,
    closeMs,
    familiesGoneMs: performance.now() - closeStarted,
    processesLeft,
    toolCount: report.toolCount,
  };
}

const job = workerInput() as ServerSetJob;
serveIpcCommands<RunCommand<ServerSetResult>>({ run: () => measure(job) });
