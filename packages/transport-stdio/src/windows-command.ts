import { win32 } from "node:path";
import type { StdioPlatform } from "./platform.js";
import { readEnv } from "./platform.js";

/** What to hand to spawn on Windows. */
export interface WindowsLaunch {
  command: string;
  args: string[];
  /** True when the arguments are already quoted for cmd.exe (Node must pass them as they are). */
  windowsVerbatimArguments: boolean;
}

/** Windows' own default when PATHEXT is unset. */
const DEFAULT_PATHEXT = ".EXE;.CMD;.BAT;.COM";
/** Files CreateProcess starts itself; anything else (.cmd, .bat, scripts) goes through cmd.exe. */
const DIRECTLY_RUNNABLE = /\.(?:com|exe)$/i;
/** An npm bin shim: it hands its arguments to node through `%*`, so cmd.exe parses them twice. */
const NPM_CMD_SHIM = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i;
/** Characters cmd.exe gives a meaning to; a caret before each makes it literal. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;
/** Bytes read to look for a `#!` line (the same amount cross-spawn reads). */
const SHEBANG_BYTES = 150;

/**
 * How Windows starts `command` with `args`, resolved the way `cross-spawn` does (so `npx`, `uvx`
 * and every npm bin, which are `.cmd` shims, start without `shell: true`):
 * 1. look the name up in each PATH directory with each PATHEXT extension (PATH read in any case:
 *    `Path` is `PATH`); a name with a slash or backslash is a path relative to `cwd`;
 * 2. a file with a `#!` line runs through its interpreter (`#!/usr/bin/env node` runs `node`);
 * 3. an `.exe` or `.com` starts directly; anything else (`.cmd`, `.bat`) through
 *    `cmd.exe /d /s /c "<line>"`, every argument quoted for CommandLineToArgvW and each cmd.exe
 *    metacharacter caret-escaped (twice for npm shims), with `windowsVerbatimArguments` so Node
 *    adds no quoting of its own. No argument can end the line or start a second command.
 * Unlike cross-spawn, the current directory is not searched first (a planted `npx.cmd` in a
 * project must not run) and cmd.exe gets the resolved path, not the bare name to look up again.
 * Throws an ENOENT error, as spawn would, when nothing is found.
 */
export function resolveWindowsLaunch(
  target: { command: string; args: readonly string[]; env: NodeJS.ProcessEnv; cwd?: string | undefined },
  platform: StdioPlatform,
): WindowsLaunch {
  const lookup = { env: target.env, cwd: target.cwd ?? ".", platform };
  const file = findWindowsCommand(target.command, lookup);
  if (file === undefined) throw notFound(target.command);
  const interpreter = readShebang(file, platform);
  let program = file;
  let args = [...target.args];
  if (interpreter !== undefined) {
    const found = findWindowsCommand(interpreter.command, lookup);
    if (found === undefined) throw notFound(interpreter.command);
    program = found;
    args = [...interpreter.args, file, ...args];
  }
  if (DIRECTLY_RUNNABLE.test(program)) return { command: program, args, windowsVerbatimArguments: false };
  const twice = NPM_CMD_SHIM.test(program);
  const line = [escapeCmdCommand(win32.normalize(program)), ...args.map((arg) => escapeCmdArgument(arg, twice))];
  const shell = readEnv(target.env, "ComSpec", "win32") ?? readEnv(platform.env, "ComSpec", "win32") ?? "cmd.exe";
  return { command: shell, args: ["/d", "/s", "/c", `"${line.join(" ")}"`], windowsVerbatimArguments: true };
}

interface Lookup {
  env: NodeJS.ProcessEnv;
  cwd: string;
  platform: StdioPlatform;
}

/** The file `command` names on Windows, or undefined. */
export function findWindowsCommand(command: string, lookup: Lookup): string | undefined {
  // PATH from the server's environment, PATHEXT from there or else the host's (as cross-spawn does).
  const pathext = readEnv(lookup.env, "PATHEXT", "win32") ?? readEnv(lookup.platform.env, "PATHEXT", "win32");
  const extensions = (pathext ?? DEFAULT_PATHEXT).split(";").filter((extension) => extension !== "");
  // A name that already has an extension ("server.cmd", "python3.11") is tried as it is first.
  const candidates = (base: string): string[] =>
    win32.extname(base) === "" ? extensions.map((ext) => base + ext) : [base, ...extensions.map((ext) => base + ext)];
  const directories = /[\\/]/.test(command)
    ? [""]
    : (readEnv(lookup.env, "PATH", "win32") ?? "")
        .split(";")
        .map((entry) => entry.replace(/^"(.*)"$/, "$1"))
        .filter((entry) => entry !== "");
  for (const directory of directories) {
    for (const candidate of candidates(win32.resolve(lookup.cwd, directory, command))) {
      if (lookup.platform.stat(candidate)?.isFile === true) return candidate;
    }
  }
  return undefined;
}

/** The interpreter a `#!` line names: `#!/usr/bin/env node` is node, `#!/bin/sh -e` is sh with -e. */
function readShebang(file: string, platform: StdioPlatform): { command: string; args: string[] } | undefined {
  if (DIRECTLY_RUNNABLE.test(file)) return undefined;
  const head = platform.readHead(file, SHEBANG_BYTES);
  const match = head === undefined ? null : /^#! ?([^\r\n]*)/.exec(head);
  if (match === null) return undefined;
  const [path = "", argument] = (match[1] ?? "").trim().split(" ");
  const binary = path.split("/").pop() ?? "";
  if (binary === "env") return argument === undefined ? undefined : { command: argument, args: [] };
  if (binary === "") return undefined;
  return { command: binary, args: argument === undefined ? [] : [argument] };
}

/** The program name on a cmd.exe line: each metacharacter (spaces too) made literal. */
export function escapeCmdCommand(command: string): string {
  return command.replace(CMD_META, "^$1");
}

/**
 * One argument on a cmd.exe line (https://qntm.org/cmd): first quoted for CommandLineToArgvW
 * (backslashes before a quote doubled and the quote escaped, trailing backslashes doubled, the
 * whole in quotes), then every cmd.exe metacharacter, the quotes included, caret-escaped so cmd.exe
 * expands nothing (`%PATH%`, `!x!`) and ends nothing (`&`, `|`, `>`); twice when cmd.exe parses
 * the line again (an npm shim's `%*`).
 */
export function escapeCmdArgument(argument: string, twice: boolean): string {
  const quoted = `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1")}"`;
  const once = quoted.replace(CMD_META, "^$1");
  return twice ? once.replace(CMD_META, "^$1") : once;
}

function notFound(command: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`spawn ${command} ENOENT`);
  error.code = "ENOENT";
  return error;
}
