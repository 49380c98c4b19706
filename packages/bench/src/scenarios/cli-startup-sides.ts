import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const FLOOR_CLI = fileURLToPath(new URL("../clients/floor-cli.mjs", import.meta.url));

/**
 * The revision `mcp-tool-adapter call` negotiates (the adapter's latest): the server alone and
 * the floor ask for the same, so a server does the same work for each side.
 */
export const CALL_PROTOCOL_VERSION = "2025-11-25";

/** A stdio server as the config names it, and the one cheap tool each side calls. */
export interface StartupTarget {
  /** The server's name in the config (`call <name>/<tool>`) and in the figure ids. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** When a side's process was spawned and when it exited, on the bench's clock (epoch ms). */
export interface SideRun {
  readonly spawned: number;
  readonly exited: number;
}

/**
 * The compiled CLI a published install runs (the bin in a checkout runs the sources through tsx);
 * `scenario` names the --only that needs it, for the message when it was not built.
 */
export function compiledCli(scenario: string): string {
  const manifest = createRequire(import.meta.url).resolve("mcp-tool-adapter/package.json");
  const cli = join(dirname(manifest), "dist", "cli", "main.js");
  if (!existsSync(cli)) {
    throw new Error(`${cli} is missing: run "pnpm --filter mcp-tool-adapter... build" before --only=${scenario}.`);
  }
  return cli;
}

/** The machine's load average when a figure was taken, for its note. */
export const loadNote = (): string =>
  `load average at the end ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`;

/** Epoch ms with sub-ms precision, on the same clock as a server's performance.timeOrigin. */
export const now = (): number => performance.timeOrigin + performance.now();

/** The config `call` reads: the target as a plain stdio entry. */
export function configEntry(target: StartupTarget): Record<string, unknown> {
  return { command: target.command, args: target.args, ...(target.env === undefined ? {} : { env: target.env }) };
}

/** One `mcp-tool-adapter call <server>/<tool> --yes` through the compiled CLI, a fresh process. */
export function runCliSide(
  target: StartupTarget,
  where: { cli: string; directory: string; config: string; cacheDirectory: string },
): Promise<SideRun> {
  const args = [
    where.cli,
    "call",
    `${target.name}/${target.tool}`,
    "--args",
    JSON.stringify(target.arguments),
    "--yes",
    "--config",
    where.config,
  ];
  return runNodeProcess(args, {
    cwd: where.directory,
    env: { ...process.env, MCP_TOOL_ADAPTER_CACHE_DIR: where.cacheDirectory, NO_COLOR: "1" },
  });
}

/** The floor: a plain Node script doing what `call` does (spawn, initialize, one call, exit), nothing loaded. */
export function runFloorSide(target: StartupTarget, directory: string): Promise<SideRun> {
  return runNodeProcess(
    [FLOOR_CLI, CALL_PROTOCOL_VERSION, target.tool, JSON.stringify(target.arguments), target.command, ...target.args],
    { cwd: directory, env: { ...process.env, ...target.env } },
  );
}

/** A side's run with what its process printed (stdout and stderr, in order). */
export interface NodeRun extends SideRun {
  readonly output: string;
}

/** Runs `node ...args` to its exit (which must be 0): when it was spawned, when it exited, what it printed. */
export async function runNodeProcess(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<NodeRun> {
  const spawned = now();
  const child = spawn(process.execPath, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", resolve);
  });
  const exited = now();
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}: ${output}`);
  return { spawned, exited, output };
}

/** A JSON-RPC answer as far as the sides look at it: a failed call is an error or an isError result. */
interface Answer {
  error?: unknown;
  result?: { isError?: boolean };
}

/**
 * The server alone, driven from the bench's own process (no Node bootstrap of a driver in its
 * time): spawn, initialize, one tools/call, close stdin, wait for its exit. A failed call fails
 * the run, so a side cannot look fast by failing.
 */
export async function runServerAloneSide(target: StartupTarget): Promise<SideRun> {
  const spawned = now();
  const child = spawn(target.command, [...target.args], {
    env: { ...process.env, ...target.env },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const replies = new Map<number, (message: Answer) => void>();
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf("\n");
    while (newline >= 0) {
      const message = JSON.parse(buffered.slice(0, newline)) as Answer & { id?: number; method?: string };
      buffered = buffered.slice(newline + 1);
      // Answers only: a server's own notifications and requests have a method.
      if (message.method === undefined && message.id !== undefined) replies.get(message.id)?.(message);
      newline = buffered.indexOf("\n");
    }
  });
  const request = (id: number, method: string, params: unknown): Promise<void> =>
    new Promise((resolve, reject) => {
      replies.set(id, (message) =>
        message.error === undefined && message.result?.isError !== true
          ? resolve()
          : reject(new Error(`${method} failed: ${JSON.stringify(message.error ?? message.result)}`)),
      );
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  const exit = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  try {
    await request(1, "initialize", {
      protocolVersion: CALL_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "bench", version: "0" },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    await request(2, "tools/call", { name: target.tool, arguments: target.arguments });
  } catch (error) {
    child.kill();
    throw error;
  } finally {
    child.stdin.end();
  }
  await exit;
  return { spawned, exited: now() };
}
