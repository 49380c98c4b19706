import { writeFileSync } from "node:fs";
import { PHASE_SIGNAL, type CpuReport } from "./call-job.js";

/**
 * Counts this process's CPU time (user + system) from now, notes it at each PHASE_SIGNAL, and
 * writes a CpuReport to `path` when `write()` is called (nothing without a path).
 */
export function startCpuReport(path: string | undefined): { write(): void } {
  const started = process.cpuUsage();
  const used = (): number => {
    const { user, system } = process.cpuUsage(started);
    return user + system;
  };
  const phaseEndsUs: number[] = [];
  process.on(PHASE_SIGNAL, () => phaseEndsUs.push(used()));
  return {
    write: () => {
      if (path === undefined) return;
      const report: CpuReport = { cpuUs: used(), phaseEndsUs };
      writeFileSync(path, JSON.stringify(report));
    },
  };
}
