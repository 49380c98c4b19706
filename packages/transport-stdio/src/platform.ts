import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { accessSync, closeSync, constants, openSync, readSync, statSync } from "node:fs";

/** What a path on disk is, as far as starting it goes. */
export interface FileFacts {
  isFile: boolean;
  /** The execute permission (POSIX); on Windows every file counts as executable. */
  executable: boolean;
}

/**
 * The operating system as the stdio transport sees it: which platform and processor, the host's
 * environment, the file system (only what command resolution needs) and process creation. The
 * transport uses the real one; tests inject another to run the Windows rules on Linux.
 */
export interface StdioPlatform {
  readonly name: NodeJS.Platform;
  /**
   * The processor architecture, as `process.arch`: which launcher can run (see findLauncher).
   * Optional so a platform written before it existed still compiles; left out, the architecture
   * counts as unknown and the package's own native launcher is never used (perl is).
   */
  readonly arch?: NodeJS.Architecture;
  readonly env: NodeJS.ProcessEnv;
  /** Facts about `path`, or undefined when nothing is there (or it cannot be read). */
  stat(path: string): FileFacts | undefined;
  /** The first `bytes` bytes of the file as latin1 text, or undefined when it cannot be read. */
  readHead(path: string, bytes: number): string | undefined;
  spawn(command: string, args: readonly string[], options: SpawnOptions): ChildProcess;
  /** Whether the process exists (`process.kill(pid, 0)`). */
  isRunning(pid: number): boolean;
}

/** The machine this process runs on. */
export const nodePlatform: StdioPlatform = {
  name: process.platform,
  arch: process.arch,
  env: process.env,
  stat(path) {
    try {
      const stats = statSync(path);
      return { isFile: stats.isFile(), executable: process.platform === "win32" || isExecutable(path) };
    } catch (error) {
      // A file we may not look at is there but cannot be run: report it as not executable.
      return (error as NodeJS.ErrnoException).code === "EACCES" ? { isFile: true, executable: false } : undefined;
    }
  },
  readHead(path, bytes) {
    let fd: number | undefined;
    try {
      fd = openSync(path, "r");
      const buffer = Buffer.alloc(bytes);
      const read = readSync(fd, buffer, 0, bytes, 0);
      return buffer.subarray(0, read).toString("latin1");
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  },
  spawn: (command, args, options) => spawn(command, args, options),
  isRunning(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  },
};

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The value of environment variable `name`: on Windows names are case-insensitive (the host's
 * `Path` is `PATH`), elsewhere exact.
 */
export function readEnv(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return env[name];
  const key = envKey(env, name, platform);
  return key === undefined ? undefined : env[key];
}

/** The key under which `env` holds `name` (any case on Windows), if it does. */
export function envKey(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== "win32") return Object.hasOwn(env, name) ? name : undefined;
  const upper = name.toUpperCase();
  return Object.keys(env).find((key) => key.toUpperCase() === upper);
}
