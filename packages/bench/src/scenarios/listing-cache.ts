import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchContext } from "../context.js";
import { compared, type Figure } from "../figures.js";
import { median, medianPairedRatio } from "../stats.js";
import { publishedStartupTargets } from "./cli-startup-servers.js";
import {
  compiledCli,
  configEntry,
  loadNote,
  runCliSide,
  runNodeProcess,
  type StartupTarget,
} from "./cli-startup-sides.js";

const AGENT_START = fileURLToPath(new URL("../clients/agent-start.mjs", import.meta.url));

/** A cache directory the runs of one side share (warm), or a fresh empty one per run (cold). */
type CacheState = "cold" | "warm";
const STATES: readonly CacheState[] = ["cold", "warm"];

interface ColdWarm {
  readonly cold: number[];
  readonly warm: number[];
}

/** What a run of the agent-start client printed. */
interface AgentReady {
  readonly ready: number;
  readonly tools: number;
}

/**
 * The tool-list cache across processes (issue 37 §2), measured where users meet it: a
 * `mcp-tool-adapter call` and an agent's start (a config's servers connected as one MCPServerSet
 * and their tools converted for the model), each a fresh process, with a cold cache (an empty
 * directory per run: the process lists every server and writes the cache) and a warm one (a
 * directory a first, untimed run filled). Rounds alternate which state goes first.
 */
export async function runListingCacheScenario(context: BenchContext): Promise<Figure[]> {
  const cli = compiledCli("listing-cache");
  const rounds = context.settings.listingCacheRounds;
  const directory = await mkdtemp(join(tmpdir(), "bench-listing-cache-"));
  try {
    const published = join(directory, "published");
    await mkdir(published);
    const targets = publishedStartupTargets(published);
    const config = join(directory, "mcp.json");
    await writeFile(
      config,
      JSON.stringify({ mcpServers: Object.fromEntries(targets.map((target) => [target.name, configEntry(target)])) }),
    );
    const figures: Figure[] = [];
    for (const target of targets) {
      const times = await measureCall(context, target, { cli, directory, config, rounds });
      figures.push(
        coldWarmFigure(times, {
          id: `listing-cache.call.${target.name}`,
          label: `\`call ${target.name}/${target.tool}\` end to end`,
          rounds,
        }),
      );
    }
    const agent = await measureAgentStart(context, targets, { directory, config, rounds });
    figures.push(
      coldWarmFigure(agent, {
        id: "listing-cache.agent-start",
        label: `agent start: ${targets.length} servers (${targets.map((target) => target.name).join(", ")}) connected, tools converted for the model`,
        rounds,
      }),
    );
    return figures;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

const GROUP = "Tool lists cached across processes: cold and warm cache (built dist/, published servers)";

function coldWarmFigure(times: ColdWarm, what: { id: string; label: string; rounds: number }): Figure {
  return compared({
    id: what.id,
    group: GROUP,
    label: `${what.label}: warm cache (adapter column) vs cold cache (raw column)`,
    unit: "ms",
    adapter: median(times.warm),
    raw: median(times.cold),
    ratio: medianPairedRatio(times.warm, times.cold),
    note: `${what.rounds} rounds, a fresh process per run, medians; ${loadNote()}`,
  });
}

/** Round r starts with the cold side when r is even: each state goes first equally often. */
function statesInRound(round: number): readonly CacheState[] {
  return round % 2 === 0 ? STATES : [...STATES].reverse();
}

/** A fresh empty cache directory for one cold run. */
async function coldDirectory(directory: string, run: string): Promise<string> {
  const path = join(directory, `cold-${run}`);
  await rm(path, { recursive: true, force: true });
  return path;
}

async function measureCall(
  context: BenchContext,
  target: StartupTarget,
  where: { cli: string; directory: string; config: string; rounds: number },
): Promise<ColdWarm> {
  const warmDirectory = join(where.directory, `warm-call-${target.name}`);
  const side = (cacheDirectory: string) =>
    runCliSide(target, { cli: where.cli, directory: where.directory, config: where.config, cacheDirectory });
  await side(warmDirectory); // fills the warm cache (and the disk cache), untimed
  const times: ColdWarm = { cold: [], warm: [] };
  for (let round = 0; round < where.rounds; round += 1) {
    context.progress(`listing cache, call ${target.name}: round ${round + 1} of ${where.rounds}`);
    for (const state of statesInRound(round)) {
      const cacheDirectory =
        state === "warm" ? warmDirectory : await coldDirectory(where.directory, `call-${target.name}`);
      const run = await side(cacheDirectory);
      times[state].push(run.exited - run.spawned);
    }
  }
  return times;
}

async function measureAgentStart(
  context: BenchContext,
  targets: readonly StartupTarget[],
  where: { directory: string; config: string; rounds: number },
): Promise<ColdWarm> {
  const warmDirectory = join(where.directory, "warm-agent");
  const start = async (cacheDirectory: string): Promise<{ readyMs: number; tools: number }> => {
    const run = await runNodeProcess([AGENT_START, where.config], {
      cwd: where.directory,
      env: { ...process.env, MCP_TOOL_ADAPTER_CACHE_DIR: cacheDirectory },
    });
    const printed = JSON.parse(run.output.trim().split("\n").at(-1) ?? "") as AgentReady;
    return { readyMs: printed.ready - run.spawned, tools: printed.tools };
  };
  // Fills the warm cache, untimed; every later run must see the same tools, cache or not.
  const expected = (await start(warmDirectory)).tools;
  const times: ColdWarm = { cold: [], warm: [] };
  for (let round = 0; round < where.rounds; round += 1) {
    context.progress(`listing cache, agent start: round ${round + 1} of ${where.rounds}`);
    for (const state of statesInRound(round)) {
      const cacheDirectory = state === "warm" ? warmDirectory : await coldDirectory(where.directory, "agent");
      const { readyMs, tools } = await start(cacheDirectory);
      if (tools !== expected) {
        throw new Error(`The agent start with a ${state} cache saw ${tools} tools, the first run ${expected}.`);
      }
      times[state].push(readyMs);
    }
  }
  return times;
}
