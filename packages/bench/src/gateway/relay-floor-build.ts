import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { workerPath } from "../workers/spawn-worker.js";

const run = promisify(execFile);
/** Compiling a 100-line C file takes well under a second; a loaded machine gets far more. */
const COMPILE_TIMEOUT_MS = 60_000;

/** The relay floor (relay-floor.c) compiled for this run, or why the bench runs without it. */
export type RelayFloorBuild =
  | { readonly kind: "built"; readonly path: string; remove(): Promise<void> }
  | { readonly kind: "skipped"; readonly reason: string };

/**
 * Compiles relay-floor.c with `cc` (or `$CC`) into a fresh temporary directory. No compiler on
 * PATH means the side is skipped, not a failed run: the bench must work where only Node is
 * installed. A compiler that is present and fails is a defect of the C file, so it throws.
 */
export async function buildRelayFloor(compiler = process.env.CC ?? "cc"): Promise<RelayFloorBuild> {
  const folder = await mkdtemp(join(tmpdir(), "relay-floor-"));
  const remove = () => rm(folder, { recursive: true, force: true });
  const path = join(folder, "relay-floor");
  try {
    await run(compiler, ["-O2", "-o", path, workerPath("../gateway/relay-floor.c")], { timeout: COMPILE_TIMEOUT_MS });
    return { kind: "built", path, remove };
  } catch (error) {
    await remove();
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { kind: "skipped", reason: `no C compiler (${compiler}) on PATH` };
    throw new Error(
      `gateway bench: ${compiler} could not compile relay-floor.c: ${(error as { stderr?: string }).stderr ?? String(error)}`,
    );
  }
}

/** The command that starts the relay floor in front of the stdio server `upstream`: a stdio target for a call worker. */
export function relayFloorCommand(
  relayPath: string,
  options: {
    readonly upstream: { readonly command: string; readonly args: readonly string[] };
    readonly cpuReportPath?: string;
  },
): { command: string; args: string[] } {
  return {
    command: relayPath,
    args: [options.cpuReportPath ?? "-", options.upstream.command, ...options.upstream.args],
  };
}
