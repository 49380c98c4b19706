/** Process 'warning' events of one kind during one bench phase. */
export interface RecordedWarning {
  readonly name: string;
  readonly phase: string;
  count: number;
  /** The first one's message (later ones usually differ only in a counter). */
  readonly firstMessage: string;
}

/**
 * Records every process warning (MaxListenersExceededWarning above all) while the bench runs.
 * `phase` is set by the scenarios, so a warning points at the side and the step that caused it.
 */
export class WarningRecorder {
  phase = "setup";
  readonly #byPhaseAndName = new Map<string, RecordedWarning>();
  readonly #listener = (warning: Error): void => {
    this.#add({ name: warning.name, phase: this.phase, count: 1, firstMessage: warning.message });
  };

  start(): void {
    process.on("warning", this.#listener);
  }

  stop(): void {
    process.off("warning", this.#listener);
  }

  get warnings(): RecordedWarning[] {
    return [...this.#byPhaseAndName.values()];
  }

  /** The warnings recorded so far, forgotten here: a worker hands them to its parent with each answer. */
  drain(): RecordedWarning[] {
    const drained = this.warnings;
    this.#byPhaseAndName.clear();
    return drained;
  }

  /** Adds warnings another process recorded (a side worker's), under the phases it recorded them in. */
  absorb(warnings: readonly RecordedWarning[]): void {
    for (const warning of warnings) this.#add({ ...warning });
  }

  /** Warnings called `name` that fired while `side` was running (phases end in ".adapter" / ".raw"). */
  countDuring(name: string, side: string): number {
    return this.#sum((warning) => warning.name === name && warning.phase.endsWith(`.${side}`));
  }

  /** Warnings called `name` that fired outside any side's phase (setup, closing). */
  countOutsideSides(name: string, sides: readonly string[]): number {
    return this.#sum((warning) => warning.name === name && !sides.some((side) => warning.phase.endsWith(`.${side}`)));
  }

  #add(warning: RecordedWarning): void {
    const key = `${warning.phase}\u0000${warning.name}`;
    const known = this.#byPhaseAndName.get(key);
    if (known === undefined) this.#byPhaseAndName.set(key, warning);
    else known.count += warning.count;
  }

  #sum(matches: (warning: RecordedWarning) => boolean): number {
    return this.warnings.filter(matches).reduce((total, warning) => total + warning.count, 0);
  }
}
