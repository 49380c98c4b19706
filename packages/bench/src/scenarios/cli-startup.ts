import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchContext } from "../context.js";
import { atMost, compared, ratioAtMost, single, type Figure } from "../figures.js";
import { median, medianPairedRatio } from "../stats.js";
import { publishedStartupTargets } from "./cli-startup-servers.js";
import {
  compiledCli,
  configEntry,
  loadNote,
  runCliSide,
  runFloorSide,
  runServerAloneSide,
  type SideRun,
  type StartupTarget,
} from "./cli-startup-sides.js";

const GROUP = "CLI start-up: `mcp-tool-adapter call` (built dist/, warm tool-list cache, stdio probe server)";
const SERVER = fileURLToPath(new URL("../servers/startup-probe-server.mjs", import.meta.url));
const PROBE_ROUNDS = { default: 15, quick: 2 } as const;

async function probeEvents(log: string): Promise<{ start: number; exit: number }> {
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

type SideName = "cli" | "server" | "floor";
const SIDE_ORDER: readonly SideName[] = ["cli", "server", "floor"];

/** Round r starts at side r mod 3: each side goes first, second and third equally often. */
function sidesInRound(round: number): SideName[] {
  return SIDE_ORDER.map((_, index) => SIDE_ORDER[(round + index) % SIDE_ORDER.length] as SideName);
}

interface SideTimes {
  readonly cli: number[];
  readonly server: number[];
  readonly floor: number[];
}

/**
 * One target's three sides, a fresh process each, `rounds` rotated rounds after one untimed
 * `call` that fills the tool-list cache (and the disk cache). `afterCli` and `afterFloor` see
 * each timed run of those sides.
 */
async function measureTarget(
  context: BenchContext,
  target: StartupTarget,
  options: {
    cli: string;
    directory: string;
    rounds: number;
    group: string;
    afterCli?: (run: SideRun) => Promise<void>;
    afterFloor?: (run: SideRun) => Promise<void>;
  },
): Promise<SideTimes> {
  const config = join(options.directory, `${target.name}.mcp.json`);
  await writeFile(config, JSON.stringify({ mcpServers: { [target.name]: configEntry(target) } }));
  const where = {
    cli: options.cli,
    directory: options.directory,
    config,
    cacheDirectory: join(options.directory, "cache"),
  };
  await runCliSide(target, where);
  const times: SideTimes = { cli: [], server: [], floor: [] };
  for (let round = 0; round < options.rounds; round += 1) {
    context.progress(`${options.group}: round ${round + 1} of ${options.rounds}`);
    for (const side of sidesInRound(round)) {
      if (side === "cli") {
        const run = await runCliSide(target, where);
        await options.afterCli?.(run);
        times.cli.push(run.exited - run.spawned);
      } else if (side === "floor") {
        const run = await runFloorSide(target, options.directory);
        await options.afterFloor?.(run);
        times.floor.push(run.exited - run.spawned);
      } else {
        const run = await runServerAloneSide(target);
        times.server.push(run.exited - run.spawned);
      }
    }
  }
  return times;
}

/** The three comparisons of one target: `call` vs the server alone (judged), vs the floor, the floor vs the server. */
function comparisons(
  times: SideTimes,
  where: { idPrefix: string; judgedId: string; group: string; note: string; server: string },
): Figure[] {
  return [
    compared(
      {
        id: where.judgedId,
        group: where.group,
        label: `call end to end (adapter) vs ${where.server}'s own start-up plus one call (raw)`,
        unit: "ms",
        adapter: median(times.cli),
        raw: median(times.server),
        ratio: medianPairedRatio(times.cli, times.server),
        note: where.note,
      },
      ratioAtMost(1.2),
    ),
    // No target: how far `call` is from the least a Node CLI can do. The floor over the server
    // alone is one Node bootstrap, which no CLI written in Node can avoid.
    compared({
      id: `${where.idPrefix}call-vs-floor`,
      group: where.group,
      label: "call end to end (adapter) vs a plain Node script doing the same call (raw: the floor)",
      unit: "ms",
      adapter: median(times.cli),
      raw: median(times.floor),
      ratio: medianPairedRatio(times.cli, times.floor),
      note: where.note,
    }),
    compared({
      id: `${where.idPrefix}floor-vs-server`,
      group: where.group,
      label: `the floor (adapter column) vs ${where.server}'s own start-up plus one call (raw)`,
      unit: "ms",
      adapter: median(times.floor),
      raw: median(times.server),
      ratio: medianPairedRatio(times.floor, times.server),
      note: where.note,
    }),
  ];
}

/**
 * `mcp-tool-adapter call` with a warm tool-list cache against three sides, a fresh process per
 * run, rotated rounds, ratios the median of per-round ratios: the CLI, the server alone (driven
 * from the bench's own process: its start-up plus one call, the 1.2× baseline) and the
 * floor (a plain Node script doing the same call with nothing to load: one Node bootstrap more
 * than the server alone). First against a probe server that logs its own start and exit (how
 * long after the CLI process was spawned the server started, how long the CLI lived after the
 * server exited), then against published servers, where the server's own start-up is what users wait for.
 */
export async function runCliStartupScenario(context: BenchContext): Promise<Figure[]> {
  const cli = compiledCli("cli-startup");
  const directory = await mkdtemp(join(tmpdir(), "bench-cli-startup-"));
  try {
    const figures = await probeFigures(context, cli, directory);
    const rounds = context.settings.cliStartupServerRounds;
    const published = join(directory, "published");
    await mkdir(published);
    for (const target of publishedStartupTargets(published)) {
      const group = `CLI start-up: \`mcp-tool-adapter call ${target.name}/${target.tool}\` (built dist/, warm tool-list cache, the published server)`;
      const times = await measureTarget(context, target, { cli, directory, rounds, group });
      const note = `${rounds} rounds, a fresh process per run, medians; ${loadNote()}`;
      const idPrefix = `cli-startup.${target.name}.`;
      figures.push(
        ...comparisons(times, { idPrefix, judgedId: `${idPrefix}call-vs-server`, group, note, server: target.name }),
      );
    }
    return figures;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

/** The probe server: where the server starts and when the CLI exits, on the bench's clock, and the three comparisons. */
async function probeFigures(context: BenchContext, cli: string, directory: string): Promise<Figure[]> {
  const rounds = PROBE_ROUNDS[context.settings.name];
  const log = join(directory, "probe.log");
  const target: StartupTarget = {
    name: "probe",
    command: process.execPath,
    args: [SERVER],
    env: { STARTUP_PROBE_LOG: log },
    tool: "echo",
    arguments: { message: "hi" },
  };
  const spawnDelay: number[] = [];
  const exitLag: number[] = [];
  const floorExitLag: number[] = [];
  const times = await measureTarget(context, target, {
    cli,
    directory,
    rounds,
    group: GROUP,
    afterCli: async (run) => {
      const probe = await probeEvents(log);
      spawnDelay.push(probe.start - run.spawned);
      exitLag.push(run.exited - probe.exit);
      await rm(log, { force: true });
    },
    afterFloor: async (run) => {
      floorExitLag.push(run.exited - (await probeEvents(log)).exit);
      await rm(log, { force: true });
    },
  });
  const note = `${rounds} rounds, a fresh process per run, medians; ${loadNote()}`;
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
    // No target: the same lag for the floor, a plain Node script that exits once its server has
    // (Node's own exit and the wait for the server's exit event, with nothing of ours on the way).
    single({
      id: "cli-startup.floor-exit-lag",
      group: GROUP,
      label: "the floor's exit after the server's own exit (reference for the line above)",
      unit: "ms",
      value: median(floorExitLag),
      note,
    }),
    // The judged figure keeps the id it had before the published servers joined.
    ...comparisons(times, {
      idPrefix: "cli-startup.",
      judgedId: "cli-startup.call-warm",
      group: GROUP,
      note,
      server: "the server",
    }),
  ];
}
