/**
 * Code mode's start-up in a fresh process: one code mode over an in-process tool, then runs of a
 * one-call program, each timed (wall) and costed (this process's CPU, the sandbox's worker threads
 * included). The first run pays for the worker thread and QuickJS; later ones show what a warm
 * worker saves (or, with keepWarmMs 0, what a worker per run costs every time).
 */
import { createCodeMode } from "@mcp-tool-adapter/code-mode";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import type { RunCommand } from "./run-worker.js";
import { serveIpcCommands } from "./serve-ipc-commands.js";
import { workerInput } from "./worker-io.js";

export interface CodeModeStartupJob {
  /** The code mode's keepWarmMs: 0 is a worker per run (as before the warm worker). */
  readonly keepWarmMs: number;
  readonly runs: number;
}

export interface CodeModeStartupResult {
  readonly runs: readonly { readonly wallMs: number; readonly cpuMs: number }[];
}

async function measureStartup(job: CodeModeStartupJob): Promise<CodeModeStartupResult> {
  const registry = new ToolRegistry();
  registry.register("demo", {
    name: "echo",
    description: "Returns its arguments",
    inputSchema: { type: "object" },
    capabilities: { readOnly: true, writes: false },
    source: "bench",
    sourceMetadata: {},
    checkpointable: false,
    handler: (args) => ({ success: true, data: args }),
  });
  const codeMode = await createCodeMode(registry, { keepWarmMs: job.keepWarmMs });
  const runs: { wallMs: number; cpuMs: number }[] = [];
  try {
    for (let index = 0; index < job.runs; index += 1) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const result = await codeMode.run(`return await demo.echo({ n: ${index} });`);
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      if (!result.ok) throw new Error(`code-mode start-up: run ${index} failed: ${result.error?.message ?? "?"}`);
      runs.push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 });
    }
  } finally {
    codeMode.close();
  }
  return { runs };
}

const job = workerInput() as CodeModeStartupJob;
serveIpcCommands<RunCommand<CodeModeStartupResult>>({ run: () => measureStartup(job) });
