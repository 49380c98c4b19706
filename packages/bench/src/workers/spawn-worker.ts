import { fileURLToPath } from "node:url";
import { leakMarkerEnv } from "@mcp-tool-adapter/test-servers";

/** Node flags that run our TypeScript from source: the tsx loader and the workspace source condition. */
export function typeScriptNodeArgs(): string[] {
  return ["--import", import.meta.resolve("tsx"), "--conditions=@mcp-tool-adapter/source"];
}

/** `--cpu-prof*` flags given to the bench itself are passed on, so a profile covers the workers too. */
function inheritedProfilingArgs(): string[] {
  return process.execArgv.filter((arg) => arg.startsWith("--cpu-prof") || arg.startsWith("--heap-prof"));
}

/**
 * Node flags for a worker file written in TypeScript that runs our published builds: the tsx
 * loader for the worker's own file, without the source condition, so our packages resolve to their
 * dist (what users run), plus inherited profiling flags.
 */
export function builtPackagesNodeArgs(): string[] {
  return ["--import", import.meta.resolve("tsx"), ...inheritedProfilingArgs()];
}

/** Every node flag a worker needs: TypeScript from source, inherited profiling flags, then `extra`. */
export function workerNodeArgs(extra: readonly string[] = []): string[] {
  return [...typeScriptNodeArgs(), ...inheritedProfilingArgs(), ...extra];
}

/**
 * The worker's environment: ours plus the leak marker, so the end-of-run leftover check finds a
 * worker (and whatever inherits its environment) even after it was re-parented.
 */
export function workerEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, ...leakMarkerEnv() };
}

/** A worker file name relative to src/workers/, or an absolute path. */
export function workerPath(fileName: string): string {
  return fileURLToPath(new URL(fileName, import.meta.url));
}
