/**
 * This process's CPU time (user + system) while `run` ran, in microseconds. On a shared machine
 * wall time also counts waiting for a core; CPU time counts only the work our code asked for,
 * so it shows the client's own cost even when other processes compete for the cores.
 */
export async function measureCpuMicros<T>(run: () => Promise<T>): Promise<{ value: T; cpuMicros: number }> {
  const before = process.cpuUsage();
  const value = await run();
  const spent = process.cpuUsage(before);
  return { value, cpuMicros: spent.user + spent.system };
}

/** Adds up CPU time measured over stretches (e.g. one per round, in a side worker) and the operations they did. */
export class CpuMeter {
  #micros = 0;
  #operations = 0;

  add(cpuMicros: number, operations: number): void {
    this.#micros += cpuMicros;
    this.#operations += operations;
  }

  get totalMillis(): number {
    return this.#micros / 1000;
  }

  get microsPerOperation(): number {
    return this.#operations === 0 ? Number.NaN : this.#micros / this.#operations;
  }
}
