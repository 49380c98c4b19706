import type { ServerTarget } from "../clients/bench-client.js";
import { SIDES, type Side } from "../interleave.js";
import type { WarningRecorder } from "../warnings.js";
import { startIpcWorker, type IpcWorker } from "./ipc-worker.js";
import type { SideCommands, SideWorkerInput } from "./side-worker.js";

/** The parent's handle on one side worker (src/workers/side-worker.ts). */
export class SideWorker {
  readonly side: Side;
  readonly #worker: IpcWorker<SideCommands>;
  readonly #warnings: WarningRecorder;

  constructor(side: Side, worker: IpcWorker<SideCommands>, warnings: WarningRecorder) {
    this.side = side;
    this.#worker = worker;
    this.#warnings = warnings;
  }

  /** Runs a command in the worker and files the warnings it recorded with the bench's own. */
  async run<Command extends keyof SideCommands>(
    command: Command,
    params: SideCommands[Command]["params"],
  ): Promise<SideCommands[Command]["result"]> {
    // The bench process's own warnings keep pointing at the step in progress, as before.
    this.#warnings.phase = params.phase;
    const answer = await this.#worker.request(command, params);
    this.#warnings.absorb(answer.warnings);
    return answer;
  }

  /** Disconnects; the worker closes its client (and so its server) and exits, or is killed. */
  stop(): Promise<void> {
    return this.#worker.close();
  }
}

export interface StartSideWorkersOptions {
  target: ServerTarget;
  /** Prefix of the warning phases, e.g. "stdio". */
  phasePrefix: string;
  warnings: WarningRecorder;
  /** A/A calibration: both workers run the raw SDK. */
  calibrate?: boolean;
  /** Deadline of each command; the default is generous, since a hung worker is the only thing it catches. */
  commandTimeoutMs?: number;
}

/**
 * Starts one worker per side, both before anything is measured. When either fails to start,
 * the other is stopped before the error is thrown.
 */
export async function startSideWorkers(options: StartSideWorkersOptions): Promise<Record<Side, SideWorker>> {
  const started = await Promise.allSettled(
    SIDES.map(async (side) => {
      const input: SideWorkerInput = {
        side,
        library: options.calibrate === true ? "raw" : side,
        target: options.target,
        startPhase: `${options.phasePrefix}.start.${side}`,
      };
      const worker = await startIpcWorker<SideCommands>("side-worker.ts", input, {
        name: `${side} side worker`,
        // As in the bench process itself: warnings are recorded, not printed (printing costs the side CPU).
        nodeArgs: ["--no-warnings"],
        ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
      });
      return new SideWorker(side, worker, options.warnings);
    }),
  );
  const workers = started.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
  const failure = started.find((outcome) => outcome.status === "rejected");
  if (failure !== undefined) {
    await stopSideWorkers(workers);
    throw failure.reason;
  }
  const bySide = (side: Side): SideWorker => workers.find((worker) => worker.side === side)!;
  return { adapter: bySide("adapter"), raw: bySide("raw") };
}

/** Stops every worker; never throws, so it cannot hide the error that ended a scenario. */
export async function stopSideWorkers(workers: Iterable<SideWorker>): Promise<void> {
  await Promise.all([...workers].map((worker) => worker.stop()));
}
