import type { PeerFigureKind } from "./figure-kinds.js";
import type { PeerJob, PeerResult } from "./peer-job.js";
import type { RoundValues } from "./ratios.js";
import { rotatedOrder } from "./rotation.js";

export interface PeerRoundsPlan<Runner extends string> {
  /** Who runs, each in a fresh process per round; the order rotates by one place per round. */
  readonly runners: readonly Runner[];
  readonly rounds: number;
  readonly jobFor: (runner: Runner) => PeerJob;
  /** Runs one job in a fresh process (runPeerWorker with the scenario's options). */
  readonly run: (job: PeerJob) => Promise<PeerResult>;
  /** Called before each run, e.g. to progress-report and to mark the warning phase. */
  readonly starting?: (runner: Runner, round: number) => void;
}

export interface PeerRoundsOutcome<Runner extends string> {
  /** Each round's results by runner; a runner that failed that round is missing from it. */
  readonly rounds: readonly Partial<Record<Runner, PeerResult>>[];
  /** The runs that failed, with round, runner and reason. */
  readonly failures: readonly string[];
}

/**
 * The comparison's rounds: in each, every runner once, in a fresh process, in an order that
 * rotates each round. One runner failing does not cost the others their figures; it is reported.
 */
export async function runPeerRounds<Runner extends string>(
  plan: PeerRoundsPlan<Runner>,
): Promise<PeerRoundsOutcome<Runner>> {
  const rounds: Partial<Record<Runner, PeerResult>>[] = [];
  const failures: string[] = [];
  for (let round = 0; round < plan.rounds; round += 1) {
    const results: Partial<Record<Runner, PeerResult>> = {};
    for (const runner of rotatedOrder(plan.runners, round)) {
      plan.starting?.(runner, round);
      try {
        results[runner] = await plan.run(plan.jobFor(runner));
      } catch (error) {
        failures.push(`round ${round + 1}, ${runner}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    rounds.push(results);
  }
  return { rounds, failures };
}

/**
 * One figure's per-round values by side, read from the sides' results (import probes have none;
 * a run of the sequential stage alone has the sequential figures only).
 */
export function figureRounds<Runner extends string>(
  rounds: readonly Partial<Record<Runner, PeerResult>>[],
  kind: PeerFigureKind,
): RoundValues<Runner>[] {
  return rounds.map((results) => {
    const values: RoundValues<Runner> = {};
    for (const [runner, result] of Object.entries(results) as [Runner, PeerResult | undefined][]) {
      if (result?.kind === "side") values[runner] = kind.read(result);
      else if (result?.kind === "sequential" && kind.stage === "sequential") values[runner] = kind.read(result);
    }
    return values;
  });
}
