import { readFileSync, writeFileSync } from "node:fs";
import { PHASE_SIGNAL, type CpuReport } from "./call-job.js";

/** The main thread's CPU time so far (µs), from the kernel's scheduler statistics; undefined off Linux. */
function mainThreadCpuUs(): number | undefined {
  try {
    // The first field is the time the thread ran on a CPU, in nanoseconds (not clock ticks: exact).
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1000;
  } catch {
    return undefined;
  }
}

/**
 * Counts this process's CPU time (user + system, the system part apart, and the main thread's
 * part where the kernel tells it) from now, notes it at each PHASE_SIGNAL, and writes a CpuReport
 * to `path` when `write()` is called (nothing without a path).
 */
export function startCpuReport(path: string | undefined): { write(): void } {
  const started = process.cpuUsage();
  const mainStarted = mainThreadCpuUs();
  const used = (): { cpu: number; system: number; main: number | undefined } => {
    const { user, system } = process.cpuUsage(started);
    const main = mainThreadCpuUs();
    return {
      cpu: user + system,
      system,
      main: main === undefined || mainStarted === undefined ? undefined : main - mainStarted,
    };
  };
  const phases: ReturnType<typeof used>[] = [];
  process.on(PHASE_SIGNAL, () => phases.push(used()));
  return {
    write: () => {
      if (path === undefined) return;
      const end = used();
      const mainThread =
        end.main === undefined || phases.some((phase) => phase.main === undefined)
          ? {}
          : { mainThreadUs: end.main, phaseMainThreadEndsUs: phases.map((phase) => phase.main as number) };
      const report: CpuReport = {
        cpuUs: end.cpu,
        phaseEndsUs: phases.map((phase) => phase.cpu),
        systemUs: end.system,
        phaseSystemEndsUs: phases.map((phase) => phase.system),
        ...mainThread,
      };
      writeFileSync(path, JSON.stringify(report));
    },
  };
}
