import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the counter MCP server script (plain ESM, run by node directly). */
export const COUNTER_SERVER_PATH: string = fileURLToPath(new URL("../servers/counter-server.mjs", import.meta.url));

/** What every counter server started on one state directory has recorded there. */
export interface CounterState {
  /** The `id` of every write that ran, in order; an id twice means a write ran twice. */
  writes: string[];
  /** The pid of every start, in order. */
  starts: number[];
  /** The pid of the server process that ran each read-only call (read_count, whoami), in the order they started. */
  reads: number[];
  /** Every write that reached a server, when it started (before its first wait): its id and the server's pid. */
  writeStarts: { id: string; pid: number }[];
}

/** How to launch the counter server over stdio on `stateDir` (spread it into a stdio config with a name). */
export function counterServerConfig(stateDir: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [COUNTER_SERVER_PATH, `--state-dir=${stateDir}`] };
}

/** Reads what the counter servers on `stateDir` recorded. */
export function readCounterState(stateDir: string): CounterState {
  const lines = (file: string): string[] => {
    const path = join(stateDir, file);
    return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
  };
  return {
    writes: lines("writes.log"),
    starts: lines("starts.log").map(Number),
    reads: lines("reads.log").map(Number),
    writeStarts: lines("write-starts.log").map((line) => {
      const [id = "", pid = ""] = line.split(" ");
      return { id, pid: Number(pid) };
    }),
  };
}

/** While down, a counter server started on `stateDir` exits at once with code 1 (a server that never comes back). */
export function setCounterServerDown(stateDir: string, down: boolean): void {
  const flag = join(stateDir, "down");
  if (down) writeFileSync(flag, "down\n");
  else rmSync(flag, { force: true });
}

export interface CounterHttpServer {
  /** The streamable HTTP endpoint on 127.0.0.1. */
  readonly url: string;
  /** Drops every session, as a restarted server would: old session ids get HTTP 404 from now on. */
  forgetSessions(): Promise<void>;
  /** Stops the server process and waits for it to exit. Safe to call twice. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;

/** Starts the counter server over streamable HTTP on a free 127.0.0.1 port, in its own process. */
export async function startCounterHttpServer(stateDir: string): Promise<CounterHttpServer> {
  const child = spawn(process.execPath, [COUNTER_SERVER_PATH, `--state-dir=${stateDir}`, "--http"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`counter server did not start: ${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const match = /listening port=(\d+)/u.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`counter server exited with code ${String(code)}: ${output}`));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/mcp`,
    async forgetSessions() {
      const response = await fetch(`${base}/forget-sessions`, { method: "POST" });
      if (response.status !== 204) throw new Error(`forget-sessions answered HTTP ${response.status}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
