import { spawnSync } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findNativeLauncher } from "../src/native-launcher.js";
import { findLauncher, findPerl, launchInOwnProcessGroup, type Launcher } from "../src/own-process-group.js";
import { nodePlatform } from "../src/platform.js";
import { resolveCommand } from "../src/resolve-command.js";
import { scratchDirectoriesAfterEach } from "./helpers.js";

const scratch = scratchDirectoriesAfterEach();

async function script(path: string, mode: number): Promise<void> {
  await writeFile(path, "#!/bin/sh\nexit 0\n");
  await chmod(path, mode);
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
  return undefined;
}

describe("resolveCommand (what execvp would run)", () => {
  it("looks a bare name up in PATH in order, skipping files that are not executable and directories", async () => {
    const root = await scratch();
    for (const name of ["a", "b", "c"]) await mkdir(join(root, name));
    await script(join(root, "a", "tool"), 0o644);
    await mkdir(join(root, "b", "tool"));
    await script(join(root, "c", "tool"), 0o755);
    const path = ["a", "b", "c"].map((name) => join(root, name)).join(":");
    expect(resolveCommand("tool", path)).toBe(join(root, "c", "tool"));
  });

  it("says EACCES when only non-executable files match, ENOENT when nothing does", async () => {
    const root = await scratch();
    await script(join(root, "tool"), 0o644);
    expect(codeOf(() => resolveCommand("tool", root))).toBe("EACCES");
    expect(codeOf(() => resolveCommand("no-such-tool", root))).toBe("ENOENT");
  });

  it("takes a name with a slash as a path relative to the working directory, and an empty PATH entry as that directory", async () => {
    const root = await scratch();
    await script(join(root, "tool"), 0o755);
    expect(resolveCommand("./tool", "/nonexistent", root)).toBe(join(root, "tool"));
    expect(resolveCommand("tool", ":/nonexistent", root)).toBe(join(root, "tool"));
    expect(codeOf(() => resolveCommand("./missing", "/usr/bin", root))).toBe("ENOENT");
  });
});

describe("findLauncher", () => {
  it("takes the native launcher on Linux x64 and perl elsewhere", () => {
    const native = findNativeLauncher(nodePlatform);
    if (process.platform === "linux" && process.arch === "x64") {
      expect(native, "the native launcher can run on this machine").toBeDefined();
      expect(findLauncher({ ...nodePlatform, env: { PATH: "/nonexistent" } })).toEqual({
        kind: "native",
        file: native,
      });
    }
    expect(findNativeLauncher({ name: "darwin", arch: "x64" })).toBeUndefined();
    expect(findNativeLauncher({ name: "linux", arch: "arm64" })).toBeUndefined();
  });

  it("looks for perl on the given platform's PATH when the native launcher cannot run there", () => {
    const linuxArm = { ...nodePlatform, name: "linux" as const, arch: "arm64" as const };
    const perlFile = findPerl(nodePlatform.env["PATH"]);
    expect(findLauncher(linuxArm)).toEqual(perlFile === undefined ? undefined : { kind: "perl", file: perlFile });
    expect(findLauncher({ ...linuxArm, env: { PATH: "/nonexistent" } })).toBeUndefined();
  });
});

const perl = findPerl();
const native = findNativeLauncher(nodePlatform);
const LAUNCHERS: Launcher[] = [
  ...(native === undefined ? [] : [{ kind: "native" as const, file: native }]),
  { kind: "perl", file: perl ?? "perl is not on this machine's PATH (Debian and Ubuntu always have it)" },
];

/** First line: `$0|pid|pgid|sid` of the shell the launcher ran; then its environment. */
const REPORT = 'echo "$0|$$|$(ps -o pgid= -p $$ | tr -d " ")|$(ps -o sid= -p $$ | tr -d " ")"; env';

function parseReport(stdout: string): { fields: string[]; environment: Record<string, string> } {
  const [first, ...lines] = stdout.trim().split("\n");
  const environment = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  delete environment["PWD"];
  delete environment["SHLVL"];
  delete environment["_"];
  return { fields: first!.split("|"), environment };
}

describe("launchInOwnProcessGroup", () => {
  it("is unavailable without a launcher (no perl), and then the server is spawned as it is", () => {
    expect(findPerl("/nonexistent")).toBeUndefined();
    expect(launchInOwnProcessGroup({ command: "cat", args: [], env: { PATH: "/usr/bin:/bin" } }, undefined)).toBe(
      undefined,
    );
  });

  describe.each(LAUNCHERS)("with the $kind launcher", (launcher) => {
    it("runs the server in place, leading its own group in the host's session, with its own arguments and exactly the environment it was meant to get", () => {
      const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", PERL5OPT: "-Mstrict=not-a-tag", KEEP: "x y" };
      const target = { command: "sh", args: ["-c", REPORT, "arg zero"], env };
      const launch = launchInOwnProcessGroup(target, launcher)!;
      const run = spawnSync(launch.command, launch.args, { env: launch.env, encoding: "utf8" });
      // A PERL5OPT meant for the server neither breaks a launcher nor is lost on the way.
      expect(run.stderr).toBe("");
      const { fields, environment } = parseReport(run.stdout);
      const [argv0, pid, pgid, sid] = fields;
      expect(argv0).toBe("arg zero");
      expect(pid).toBe(String(run.pid));
      expect(pgid).toBe(pid);
      // Not a new session: setsid would make the server a session leader (sid = its pid).
      expect(sid).toBe(spawnSync("ps", ["-o", "sid=", "-p", String(process.pid)], { encoding: "utf8" }).stdout.trim());
      expect(environment).toEqual(env);
    });

    it('runs a script without "#!" through /bin/sh, as spawn (execvp) does', async () => {
      const root = await scratch();
      const server = join(root, "plain-script");
      await writeFile(server, 'echo "ran $0 with $1"\n');
      await chmod(server, 0o755);
      const launch = launchInOwnProcessGroup(
        { command: server, args: ["an argument"], env: { PATH: "/usr/bin:/bin" } },
        launcher,
      )!;
      const run = spawnSync(launch.command, launch.args, { env: launch.env, encoding: "utf8" });
      expect(run.stdout).toBe(`ran ${server} with an argument\n`);
      expect(run.status).toBe(0);
    });

    it("reports a command it cannot run as spawn would (ENOENT, EACCES), before anything starts", () => {
      const env = { PATH: "/nonexistent" };
      expect(codeOf(() => launchInOwnProcessGroup({ command: "no-such-server", args: [], env }, launcher))).toBe(
        "ENOENT",
      );
    });
  });
});
