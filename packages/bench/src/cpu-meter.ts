/**
 * Adds up this process's CPU time (user + system) over measured stretches. On a shared machine
 * wall time also counts waiting for a core; CPU time counts only the work our code asked for,
 * so it shows the client's own cost even when other processes compete for the cores.
 */
export class CpuMeter {
  #micros = 0;
  #operations = 0;

  async measure<T>(operations: number, run: () => Promise<T>): Promise<T> {
    const before = process.cpuUsage();
    try {
      return await run();
    } finally {
      const spent = process.cpuUsage(before);
      this.#micros += spent.user + spent.system;
      this.#operations += operations;
    }
  }

  get totalMillis(): number {
    return this.#micros / 1000;
  }

  get microsPerOperation(): number {
    return this.#operations === 0 ? Number.NaN : this.#micros / this.#operations;
  }
}
