import { spawnSync } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTempDirectory, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { findPerl, launchInOwnProcessGroup } from "../src/own-process-group.js";
import { resolveCommand } from "../src/resolve-command.js";

const directories: TempDirectory[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => directory.remove()));
});

async function scratch(): Promise<string> {
  const directory = await createTempDirectory();
  directories.push(directory);
  return directory.path;
}

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

describe("launchInOwnProcessGroup", () => {
  it("is unavailable without perl, and then the server is spawned as it is", () => {
    expect(findPerl("/nonexistent")).toBeUndefined();
    expect(launchInOwnProcessGroup({ command: "cat", args: [], env: { PATH: "/usr/bin:/bin" } }, undefined)).toBe(
      undefined,
    );
  });

  it("runs the server in place with its own arguments and exactly the environment it was meant to get", () => {
    const perl = findPerl();
    expect(perl, "perl is on this machine's PATH (Debian and Ubuntu always have it)").toBeDefined();
    const env = { PATH: process.env["PATH"] ?? "/usr/bin:/bin", PERL5OPT: "-Mstrict=not-a-tag", KEEP: "x y" };
    const target = { command: "sh", args: ["-c", 'echo "$0|$$|$(ps -o pgid= -p $$)"; env', "arg zero"], env };
    const launch = launchInOwnProcessGroup(target, perl)!;
    const run = spawnSync(launch.command, launch.args, { env: launch.env, encoding: "utf8" });
    // A PERL5OPT meant for the server neither breaks the launcher nor is lost on the way.
    expect(run.stderr).toBe("");
    const [first, ...environment] = run.stdout.trim().split("\n");
    const [argv0, pid, pgid] = first!.split("|");
    expect(argv0).toBe("arg zero");
    expect(Number(pgid)).toBe(Number(pid));
    expect(pid).toBe(String(run.pid));
    const seen = Object.fromEntries(
      environment.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    delete seen["PWD"];
    delete seen["SHLVL"];
    delete seen["_"];
    expect(seen).toEqual(env);
  });

  it("reports a command it cannot run as spawn would (ENOENT, EACCES), before anything starts", () => {
    const env = { PATH: "/nonexistent" };
    expect(codeOf(() => launchInOwnProcessGroup({ command: "no-such-server", args: [], env }, "/usr/bin/perl"))).toBe(
      "ENOENT",
    );
  });
});
