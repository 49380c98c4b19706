import { findNativeLauncher } from "./native-launcher.js";
import { readEnv, type StdioPlatform } from "./platform.js";
import { resolveCommand } from "./resolve-command.js";

/** What to spawn: the command itself, or a launcher that runs it. */
export interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * Environment variables that would change how the launcher's perl runs (PERL5OPT can load
 * modules or start the debugger; a locale that is not installed makes perl warn on stderr). The
 * launcher runs with the value given here (undefined: unset) and hands the server the value it
 * was meant to get, carried under HELD_PREFIX + name.
 */
const LAUNCHER_ENV: Readonly<Record<string, string | undefined>> = { PERL5OPT: undefined, PERL_BADLANG: "0" };
const HELD_PREFIX = "MCP_TOOL_ADAPTER_HELD_";

/**
 * setpgid(0, 0), then exec in place: the server keeps the pid the transport spawned, its
 * arguments (argv[0] included), environment, stdio and session. If setpgid fails the server
 * still runs, in the host's group. A launcher at all because Node (libuv) can only detach with
 * setsid, which would also start a new session and with it a scheduling autogroup (see
 * docs/transports.md); this is perl's version of the native one, for where that cannot run.
 */
const LAUNCHER_SCRIPT = [
  `for my $name (qw(${Object.keys(LAUNCHER_ENV).join(" ")})) {`,
  `  my $held = delete $ENV{"${HELD_PREFIX}$name"};`,
  "  if (defined $held) { $ENV{$name} = $held } else { delete $ENV{$name} }",
  "}",
  "setpgrp(0, 0);",
  "my $file = shift @ARGV;",
  "exec { $file } @ARGV;",
  'print STDERR "mcp-tool-adapter: could not run $file: $!\\n";',
  "exit 127;",
].join("\n");

/**
 * A program that starts the server in a process group of its own: this package's own (a static
 * Linux x64 executable, see native-launcher.ts) or perl. Both call setpgid(0, 0) and exec the
 * server in place; the native one takes a fraction of a millisecond to do it, perl several (its
 * interpreter starts first), on every server start.
 */
export interface Launcher {
  readonly kind: "native" | "perl";
  readonly file: string;
}

/** The launcher to use on `platform`: the native one where it runs, else perl on its PATH, else none. */
export function findLauncher(platform: Pick<StdioPlatform, "name" | "arch" | "env">): Launcher | undefined {
  const file = findNativeLauncher(platform);
  if (file !== undefined) return { kind: "native", file };
  const perlFile = findPerl(readEnv(platform.env, "PATH", platform.name));
  return perlFile === undefined ? undefined : { kind: "perl", file: perlFile };
}

/** Where perl is, looked up once per host PATH; undefined when it is not installed. */
let perl: { searchPath: string | undefined; file: string | undefined } | undefined;

/** The perl on the host's PATH, if any. */
export function findPerl(searchPath: string | undefined = process.env["PATH"]): string | undefined {
  if (perl !== undefined && perl.searchPath === searchPath) return perl.file;
  let file: string | undefined;
  try {
    file = resolveCommand("perl", searchPath);
  } catch {
    file = undefined;
  }
  perl = { searchPath, file };
  return file;
}

/**
 * How to start `command` so that it leads a process group of its own while staying in the host's
 * session: everything it starts that does not leave the group can then be found through the
 * group, even after its parent died and even without the server's token in its environment.
 * Without a `launcher` (see findLauncher) the answer is undefined: spawn the server as is.
 * Throws, like spawn, an error with code ENOENT or EACCES when `command` cannot be run.
 */
export function launchInOwnProcessGroup(
  target: Launch & { cwd?: string | undefined },
  launcher: Launcher | undefined,
): Launch | undefined {
  if (launcher === undefined) return undefined;
  const file = resolveCommand(target.command, target.env["PATH"], target.cwd);
  // The native launcher reads nothing of the environment: the server gets it as it is.
  if (launcher.kind === "native")
    return { command: launcher.file, args: [file, target.command, ...target.args], env: target.env };
  const env = Object.fromEntries(Object.entries(target.env).filter(([name]) => !Object.hasOwn(LAUNCHER_ENV, name)));
  for (const [name, launcherValue] of Object.entries(LAUNCHER_ENV)) {
    const meant = target.env[name];
    if (meant !== undefined) env[`${HELD_PREFIX}${name}`] = meant;
    if (launcherValue !== undefined) env[name] = launcherValue;
  }
  return { command: launcher.file, args: ["-e", LAUNCHER_SCRIPT, "--", file, target.command, ...target.args], env };
}
