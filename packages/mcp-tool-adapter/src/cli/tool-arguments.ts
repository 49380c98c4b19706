import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CliUsageError } from "./usage-error.js";

/** Where `call` takes the tool's arguments from: `--args` (JSON text) or `--args-file` (a file of it). */
export interface ToolArgumentsSource {
  readonly args?: string;
  readonly argsFile?: string;
}

/**
 * The tool arguments of `call`: a JSON object from `--args` or `--args-file` (relative to `cwd`),
 * else `{}`. Anything else is a CliUsageError saying what to pass. The bin's fast path reads
 * them with this too, and spawns nothing when it throws; the file is read synchronously, so the
 * fast path loads no node:fs/promises before its spawn.
 */
export function readToolArguments(cwd: string, source: ToolArgumentsSource): Record<string, unknown> {
  if (source.args !== undefined && source.argsFile !== undefined)
    throw new CliUsageError("Give the arguments with --args or --args-file, not both.");
  let text: string;
  let origin: string;
  if (source.argsFile !== undefined) {
    origin = resolve(cwd, source.argsFile);
    try {
      text = readFileSync(origin, "utf8");
    } catch (error) {
      throw new CliUsageError(`Cannot read --args-file ${origin}: ${(error as Error).message}`, { cause: error });
    }
  } else if (source.args !== undefined) {
    origin = "--args";
    text = source.args;
  } else {
    return {};
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `${origin} is not valid JSON (${(error as Error).message}). Pass a JSON object, e.g. --args '{"message":"hi"}'.`,
      { cause: error },
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CliUsageError(`${origin} must be a JSON object of tool arguments, e.g. {"message":"hi"}.`);
  }
  return value as Record<string, unknown>;
}
