import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { leakMarkerEnv } from "@mcp-tool-adapter/test-servers";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
/** A ceiling for a hang (tsx compiling the sources on a loaded machine), not a speed assertion. */
export const FIXTURE_BOUND_MS = 60_000;

export interface FixtureRun {
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | "hung";
  /** Everything it printed, stdout and stderr interleaved. */
  readonly output: string;
}

/**
 * Runs a fixture script from source (native ESM through tsx, one module per source file) and
 * waits for it to exit by itself, at most FIXTURE_BOUND_MS (then it is killed and reported as hung).
 */
export async function runUntilExit(
  args: readonly string[],
  { stdoutClosed = false }: { readonly stdoutClosed?: boolean } = {},
): Promise<FixtureRun> {
  const child = spawn(process.execPath, ["--conditions=@mcp-tool-adapter/source", "--import", "tsx", ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...leakMarkerEnv() },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // stdoutClosed: the reading end is closed before the script writes anything, as a reader that
  // leaves early does (`| head -1`); the output is then its stderr alone.
  if (stdoutClosed) child.stdout.destroy();
  else child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    ),
    new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), FIXTURE_BOUND_MS))),
  ]).finally(() => clearTimeout(timer));
  if (exit === "hung") child.kill("SIGKILL");
  return { exit, output };
}
