import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";

/** The search path `execvp` uses when the environment has no PATH (glibc's and libuv's default). */
const DEFAULT_SEARCH_PATH = "/usr/bin:/bin";

/**
 * The file `execvp` would run for `command` with this PATH and working directory, found the same
 * way: a name containing "/" is a path (relative to `cwd`), any other name is looked up in each
 * PATH directory in turn (an empty entry is `cwd`), skipping files that are not executable.
 * Throws an error with `code` "ENOENT" (nothing found) or "EACCES" (found, none executable), as
 * `spawn` itself would, so a launcher in between does not change how a bad command is reported.
 */
export function resolveCommand(command: string, searchPath: string | undefined, cwd: string = process.cwd()): string {
  if (command.includes("/")) {
    const file = resolve(cwd, command);
    const problem = executableProblem(file);
    if (problem !== undefined) throw commandError(problem, command);
    return file;
  }
  let sawNonExecutable = false;
  for (const directory of (searchPath ?? DEFAULT_SEARCH_PATH).split(delimiter)) {
    const file = resolve(cwd, join(directory, command));
    const problem = executableProblem(file);
    if (problem === undefined) return file;
    if (problem === "EACCES") sawNonExecutable = true;
  }
  throw commandError(sawNonExecutable ? "EACCES" : "ENOENT", command);
}

function executableProblem(file: string): "ENOENT" | "EACCES" | undefined {
  try {
    // A miss is an answer, not an exception: most PATH entries miss (perl is looked for on every
    // one before /usr/bin), and an error with its stack trace per entry cost the first connect of
    // a process about 1 ms before the server was spawned.
    const stats = statSync(file, { throwIfNoEntry: false });
    if (stats === undefined) return "ENOENT";
    if (!stats.isFile()) return "EACCES";
    accessSync(file, constants.X_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EACCES" ? "EACCES" : "ENOENT";
  }
}

function commandError(code: "ENOENT" | "EACCES", command: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`spawn ${command} ${code}`);
  error.code = code;
  return error;
}
