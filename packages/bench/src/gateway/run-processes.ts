import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { ServerEntries } from "mcp-tool-adapter";
import { builtPackagesNodeArgs, workerEnvironment, workerNodeArgs, workerPath } from "../workers/spawn-worker.js";
import type { CallJob, CallJobResult, CpuReport } from "./call-job.js";

/** Longest a worker or gateway may take before the bench gives up on it. */
const PROCESS_TIMEOUT_MS = 10 * 60_000;
const MIDDLE_START_TIMEOUT_MS = 2 * 60_000;

const hostPath = (): string => workerPath("../gateway/gateway-host.ts");

/** The gateway host's node flags: our packages' dist builds (what users run), or their sources with `fromSource`. */
const hostNodeArgs = (fromSource: boolean): string[] => (fromSource ? workerNodeArgs() : builtPackagesNodeArgs());

/** Where the gateway runs: its upstream servers, and the file it reports its CPU time to (see gateway-host.ts). */
export interface GatewayHostOptions {
  readonly servers: ServerEntries;
  readonly cpuReportPath?: string;
}

/** How the bench runs the gateway host: from our packages' sources through tsx instead of their builds. */
export interface GatewayRunMode {
  readonly fromSource: boolean;
}

/** The command that starts the gateway on stdio in front of `servers`: a stdio target for a call worker. */
export function stdioGatewayCommand(
  options: GatewayHostOptions,
  mode: GatewayRunMode,
): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [...hostNodeArgs(mode.fromSource), hostPath(), JSON.stringify({ downstream: "stdio", ...options })],
  };
}

/** The command that starts the proxy floor (proxy-floor.ts) on stdio in front of the stdio server `upstream`. */
export function stdioFloorCommand(options: {
  readonly upstream: { readonly command: string; readonly args: readonly string[] };
  readonly cpuReportPath?: string;
}): { command: string; args: string[] } {
  return {
    command: process.execPath,
    args: [...workerNodeArgs(), workerPath("../gateway/proxy-floor.ts"), JSON.stringify(options)],
  };
}

/** CPU time per call of the process in the middle: over every call, and per phase when it noted the phases. */
export interface MiddleCpuPerCall {
  readonly all: number;
  readonly sequential?: number | undefined;
  readonly inFlight?: number | undefined;
  /** The system (kernel) part of `all` and of `sequential`, where the middle reported it. */
  readonly allSystem?: number | undefined;
  readonly sequentialSystem?: number | undefined;
  /** The part of `sequential` its main thread ran (the rest: its helper threads), where the middle reported it. */
  readonly sequentialMainThread?: number | undefined;
}

/** What the process in the middle reported at `path` for `calls`; undefined when it wrote none. */
export async function middleCpuPerCall(
  path: string,
  calls: Pick<CallJob, "warmupCalls" | "sequentialCalls" | "concurrentCalls">,
): Promise<MiddleCpuPerCall | undefined> {
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  const report = JSON.parse(text) as CpuReport;
  const all = report.cpuUs / (calls.warmupCalls + calls.sequentialCalls + calls.concurrentCalls);
  const allSystem =
    report.systemUs === undefined
      ? undefined
      : report.systemUs / (calls.warmupCalls + calls.sequentialCalls + calls.concurrentCalls);
  const [warmedUp, sequentialDone, inFlightDone] = report.phaseEndsUs;
  if (warmedUp === undefined || sequentialDone === undefined || inFlightDone === undefined) return { all, allSystem };
  /** The sequential phase's share of a clock noted at each phase end. */
  const sequentialOf = (ends: readonly number[] | undefined): number | undefined =>
    ends?.[0] === undefined || ends[1] === undefined ? undefined : (ends[1] - ends[0]) / calls.sequentialCalls;
  return {
    all,
    sequential: (sequentialDone - warmedUp) / calls.sequentialCalls,
    inFlight: (inFlightDone - sequentialDone) / calls.concurrentCalls,
    allSystem,
    sequentialSystem: sequentialOf(report.phaseSystemEndsUs),
    sequentialMainThread: sequentialOf(report.phaseMainThreadEndsUs),
  };
}

/** Runs one call worker to the end in a fresh process and returns what it measured. */
export function runCallWorker(job: CallJob): Promise<CallJobResult> {
  const child = spawn(
    process.execPath,
    [...workerNodeArgs(), workerPath("../gateway/call-worker.ts"), JSON.stringify(job)],
    {
      env: workerEnvironment(),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    const timer = setTimeout(() => child.kill("SIGKILL"), PROCESS_TIMEOUT_MS);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as CallJobResult);
      else reject(new Error(`gateway bench: a call worker failed (${String(code ?? signal)}):\n${stderr}`));
    });
  });
}

/** A process in the middle serving HTTP (the gateway, or the HTTP proxy floor): where, its pid, and how to stop it. */
export interface RunningHttpMiddle {
  readonly url: string;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts the gateway over HTTP in its own process in front of `options.servers`; resolves with its URL. */
export function startHttpGateway(options: GatewayHostOptions, mode: GatewayRunMode): Promise<RunningHttpMiddle> {
  return startHttpMiddle("the HTTP gateway", [
    ...hostNodeArgs(mode.fromSource),
    hostPath(),
    JSON.stringify({ downstream: "http", ...options }),
  ]);
}

/** Starts the HTTP proxy floor (http-proxy-floor.ts) in its own process in front of `upstreamUrl`; resolves with its URL. */
export function startHttpFloor(options: {
  readonly upstreamUrl: string;
  readonly cpuReportPath?: string;
}): Promise<RunningHttpMiddle> {
  return startHttpMiddle("the HTTP proxy floor", [
    ...workerNodeArgs(),
    workerPath("../gateway/http-proxy-floor.ts"),
    JSON.stringify(options),
  ]);
}

/** Runs `node <args>` and resolves once it prints the URL it serves on stdout (a line of its own). */
function startHttpMiddle(name: string, args: readonly string[]): Promise<RunningHttpMiddle> {
  const child = spawn(process.execPath, [...args], {
    env: workerEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stdout = "";
    let stderr = "";
    const fail = (why: string): void => {
      child.kill("SIGKILL");
      reject(new Error(`gateway bench: ${name} ${why}:\n${stderr}`));
    };
    const timer = setTimeout(() => fail("did not start in time"), MIDDLE_START_TIMEOUT_MS);
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway bench: ${name} exited (${String(code)}) before serving:\n${stderr}`));
    });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const url = /^(http:\/\/\S+)$/m.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners("data");
      resolve({ url, pid: child.pid, stop: () => stopProcess(child) });
    });
  });
}

/** SIGTERM (the gateway closes its upstreams; each middle writes its CPU report), then SIGKILL if it lingers. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
