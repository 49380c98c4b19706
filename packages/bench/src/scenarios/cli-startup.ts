import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchContext } from "../context.js";
import { atMost, compared, ratioAtMost, single, type Figure } from "../figures.js";
import { median, medianPairedRatio } from "../stats.js";

const GROUP = "CLI start-up: `mcp-tool-adapter call` (built dist/, warm tool-list cache, stdio probe server)";
const SERVER = fileURLToPath(new URL("../servers/startup-probe-server.mjs", import.meta.url));
const FLOOR_CLI = fileURLToPath(new URL("../clients/floor-cli.mjs", import.meta.url));
const ROUNDS = { default: 15, quick: 2 } as const;

/** Epoch ms with sub-ms precision, on the same clock as the probe server's performance.timeOrigin. */
const now = (): number => performance.timeOrigin + performance.now();

/** The compiled CLI a published install runs (the bin in a checkout runs the sources through tsx). */
function compiledCli(): string {
  const manifest = createRequire(import.meta.url).resolve("mcp-tool-adapter/package.json");
  return join(dirname(manifest), "dist", "cli", "main.js");
}

interface ProbeEvents {
  start: number;
  exit: number;
}

async function probeEvents(log: string): Promise<ProbeEvents> {
  const events = (await readFile(log, "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { event: string; at: number });
  const at = (event: string): number => {
    const found = events.findLast((item) => item.event === event);
    if (found === undefined) throw new Error(`The probe server logged no "${event}" in ${log}.`);
    return found.at;
  };
  return { start: at("start"), exit: at("exit") };
}

/** One `call` through the CLI: when the process was spawned, the probe's events, when the CLI exited. */
async function runCli(cli: string, directory: string, log: string): Promise<{ spawned: number; exited: number }> {
  await rm(log, { force: true });
  const args = [
    cli,
    "call",
    "probe/echo",
    "--args",
    '{"message":"hi"}',
    "--yes",
    "--config",
    join(directory, "mcp.json"),
  ];
  return runNodeProcess(args, {
    cwd: directory,
    env: { ...process.env, MCP_TOOL_ADAPTER_CACHE_DIR: join(directory, "cache"), NO_COLOR: "1" },
  });
}

/** The floor: a plain Node script doing what `call` does (spawn, initialize, one call, exit), nothing loaded. */
function runFloorCli(directory: string, log: string): Promise<{ spawned: number; exited: number }> {
  return runNodeProcess([FLOOR_CLI, process.execPath, SERVER], {
    cwd: directory,
    env: { ...process.env, STARTUP_PROBE_LOG: log },
  });
}

/** Runs `node ...args` to its exit (which must be 0): when it was spawned and when it exited. */
async function runNodeProcess(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ spawned: number; exited: number }> {
  const spawned = now();
  const child = spawn(process.execPath, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  const exited = now();
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}: ${output}`);
  return { spawned, exited };
}

/** The probe server alone, driven by hand: spawn, initialize, one tools/call, close stdin, exit. */
async function runServerAlone(log: string): Promise<{ spawned: number; exited: number }> {
  const spawned = now();
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, STARTUP_PROBE_LOG: log },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const replies: ((line: string) => void)[] = [];
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      replies.shift()?.(line);
      newline = buffered.indexOf("\n");
    }
  });
  const request = (id: number, method: string, params: unknown): Promise<string> =>
    new Promise((resolve) => {
      replies.push(resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const exit = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await request(1, "initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "bench", version: "0" },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  await request(2, "tools/call", { name: "echo", arguments: { message: "hi" } });
  child.stdin.end();
  await exit;
  return { spawned, exited: now() };
}

/**
 * `mcp-tool-adapter call` against a probe server that logs its own start and exit: how long after
 * the CLI process was spawned the server started, how long the CLI lived after the server exited,
 * and (with a warm tool-list cache) the whole call against the server's own start-up plus one
 * call. Each run is a fresh process; the sides alternate, and the ratio is the median of the
 * per-round ratios. A third side, the floor, is a plain Node script doing the same call with
 * nothing to load: what no Node CLI can beat (one Node bootstrap plus the server's own time).
 */
export async function runCliStartupScenario(context: BenchContext): Promise<Figure[]> {
  const cli = compiledCli();
  if (!existsSync(cli)) {
    throw new Error(`${cli} is missing: run "pnpm --filter mcp-tool-adapter... build" before --only=cli-startup.`);
  }
  const rounds = ROUNDS[context.settings.name];
  const directory = await mkdtemp(join(tmpdir(), "bench-cli-startup-"));
  try {
    const log = join(directory, "probe.log");
    const config = {
      mcpServers: { probe: { command: process.execPath, args: [SERVER], env: { STARTUP_PROBE_LOG: log } } },
    };
    await writeFile(join(directory, "mcp.json"), JSON.stringify(config));
    await runCli(cli, directory, log); // untimed: fills the tool-list cache (and the disk cache)
    const spawnDelay: number[] = [];
    const exitLag: number[] = [];
    const cliTotal: number[] = [];
    const serverTotal: number[] = [];
    const floorTotal: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      context.progress(`${GROUP}: round ${round + 1} of ${rounds}`);
      const order = round % 2 === 0 ? (["cli", "server", "floor"] as const) : (["floor", "server", "cli"] as const);
      for (const side of order) {
        if (side === "cli") {
          const run = await runCli(cli, directory, log);
          const probe = await probeEvents(log);
          spawnDelay.push(probe.start - run.spawned);
          exitLag.push(run.exited - probe.exit);
          cliTotal.push(run.exited - run.spawned);
        } else if (side === "floor") {
          const run = await runFloorCli(directory, join(directory, "floor.log"));
          floorTotal.push(run.exited - run.spawned);
        } else {
          const run = await runServerAlone(join(directory, "alone.log"));
          serverTotal.push(run.exited - run.spawned);
        }
      }
    }
    const note = `${rounds} rounds, a fresh process per run, medians; load average at the end ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}`;
    return [
      single(
        {
          id: "cli-startup.server-spawned",
          group: GROUP,
          label: "server started, after the CLI process was spawned",
          unit: "ms",
          value: median(spawnDelay),
          note,
        },
        atMost(200, "ms"),
      ),
      single(
        {
          id: "cli-startup.exit-lag",
          group: GROUP,
          label: "CLI exit after the server's own exit",
          unit: "ms",
          value: median(exitLag),
          note,
        },
        atMost(20, "ms"),
      ),
      compared(
        {
          id: "cli-startup.call-warm",
          group: GROUP,
          label: "call end to end (adapter) vs the server's own start-up plus one call (raw)",
          unit: "ms",
          adapter: median(cliTotal),
          raw: median(serverTotal),
          ratio: medianPairedRatio(cliTotal, serverTotal),
          note,
        },
        ratioAtMost(1.2),
      ),
      // No target: how far `call` is from the least a Node CLI can do. The floor over the server
      // alone is one Node bootstrap, which no CLI written in Node can avoid.
      compared({
        id: "cli-startup.call-vs-floor",
        group: GROUP,
        label: "call end to end (adapter) vs a plain Node script doing the same call (raw: the floor)",
        unit: "ms",
        adapter: median(cliTotal),
        raw: median(floorTotal),
        ratio: medianPairedRatio(cliTotal, floorTotal),
        note,
      }),
      compared({
        id: "cli-startup.floor-vs-server",
        group: GROUP,
        label: "the floor (adapter column) vs the server's own start-up plus one call (raw)",
        unit: "ms",
        adapter: median(floorTotal),
        raw: median(serverTotal),
        ratio: medianPairedRatio(floorTotal, serverTotal),
        note,
      }),
    ];
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
