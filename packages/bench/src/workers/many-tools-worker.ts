/**
 * One side of the many-tools measurement in its own process: connect to the generated server,
 * then time discovering (and, for the adapter, registering) every tool, and report peak RSS.
 * Only the measured side's modules are loaded, so the RSS is that side's alone.
 */
import type { Side } from "../interleave.js";
import { median } from "../stats.js";
import { currentRssMb, peakRssMb } from "./memory.js";
import type { RunCommand } from "./run-worker.js";
import { serveIpcCommands } from "./serve-ipc-commands.js";
import { workerInput } from "./worker-io.js";

export interface ManyToolsJob {
  side: Side;
  command: string;
  args: string[];
}

export interface ManyToolsResult {
  side: Side;
  /** Time to list (adapter: discover and register) every tool, after the handshake. */
  ms: number;
  /** CPU time (user + system) this process spent in that stretch. */
  cpuMs: number;
  /** Median client CPU of listing everything again, nothing changed (adapter: discoverTools()), after the first. */
  againCpuMs: number;
  toolCount: number;
  /** RSS once the side's modules are loaded, before connecting. */
  baselineRssMb: number;
  /** VmHWM at the end: the process's peak RSS over its whole life. */
  peakRssMb: number;
}

/** How many times each side lists everything again after the first listing. */
const AGAIN = 7;

function cpuMillisSince(before: NodeJS.CpuUsage): number {
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/** Median client CPU of `AGAIN` runs of `list`: what a host pays on each tools/list_changed or reconnect. */
async function medianCpuOfAgain(list: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let round = 0; round < AGAIN; round++) {
    const cpuBefore = process.cpuUsage();
    await list();
    samples.push(cpuMillisSince(cpuBefore));
  }
  return median(samples);
}

async function measureAdapter(job: ManyToolsJob): Promise<Omit<ManyToolsResult, "side">> {
  const { MCPToolAdapter, ToolRegistry } = await import("mcp-tool-adapter");
  const baselineRssMb = currentRssMb();
  const adapter = new MCPToolAdapter({ name: "generated", transport: "stdio", command: job.command, args: job.args });
  const registry = new ToolRegistry();
  await adapter.connect();
  try {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await adapter.discoverTools();
    const report = await adapter.registerTools(registry, "generated");
    const cpuMs = cpuMillisSince(cpuBefore);
    const ms = performance.now() - started;
    if (report.skipped.length > 0)
      throw new Error(
        `adapter skipped ${report.skipped.length} generated tools, e.g. ${JSON.stringify(report.skipped[0])}`,
      );
    const againCpuMs = await medianCpuOfAgain(() => adapter.discoverTools());
    return { ms, cpuMs, againCpuMs, toolCount: registry.size, baselineRssMb, peakRssMb: peakRssMb() };
  } finally {
    await adapter.disconnect();
  }
}

async function measureRaw(job: ManyToolsJob): Promise<Omit<ManyToolsResult, "side">> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const { listAllToolsRaw } = await import("../clients/raw-client.js");
  const baselineRssMb = currentRssMb();
  const client = new Client({ name: "bench-raw-sdk", version: "0.0.0" }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: job.command, args: job.args, stderr: "ignore" }));
  try {
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const toolCount = await listAllToolsRaw(client);
    const cpuMs = cpuMillisSince(cpuBefore);
    const ms = performance.now() - started;
    const againCpuMs = await medianCpuOfAgain(() => listAllToolsRaw(client));
    return { ms, cpuMs, againCpuMs, toolCount, baselineRssMb, peakRssMb: peakRssMb() };
  } finally {
    await client.close();
  }
}

const job = workerInput() as ManyToolsJob;
serveIpcCommands<RunCommand<ManyToolsResult>>({
  run: async () => ({
    side: job.side,
    ...(job.side === "adapter" ? await measureAdapter(job) : await measureRaw(job)),
  }),
});
