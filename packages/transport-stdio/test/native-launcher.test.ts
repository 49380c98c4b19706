import { spawnSync } from "node:child_process";
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findNativeLauncher, NATIVE_LAUNCHER_IMAGE } from "../src/native-launcher.js";
import { nodePlatform } from "../src/platform.js";
import { scratchDirectoriesAfterEach } from "./helpers.js";

const onLinuxX64 = process.platform === "linux" && process.arch === "x64";
const uid = process.getuid?.() ?? -1;
const SOURCE = new URL("../launcher/own-group-linux-x64.s", import.meta.url);

const scratch = scratchDirectoriesAfterEach();

function hasBinutils(): boolean {
  return spawnSync("as", ["--version"]).status === 0 && spawnSync("ld", ["--version"]).status === 0;
}

describe.runIf(onLinuxX64)("the native launcher", () => {
  it.runIf(hasBinutils())("is exactly what its assembly source builds to", async () => {
    const work = await scratch();
    const object = join(work, "own-group.o");
    const program = join(work, "own-group");
    const source = new URL(SOURCE).pathname;
    expect(spawnSync("as", ["-o", object, source], { encoding: "utf8" }).stderr).toBe("");
    const link = ["-static", "-nostdlib", "-n", "-s", "--build-id=none", "-z", "noexecstack", "-o", program, object];
    expect(spawnSync("ld", link, { encoding: "utf8" }).status).toBe(0);
    expect((await readFile(program)).toString("base64")).toBe(NATIVE_LAUNCHER_IMAGE);
  });

  it("is written once to a private directory of this user and run from there", async () => {
    const parent = await scratch();
    const file = findNativeLauncher(nodePlatform, parent)!;
    expect(file).toBe(join(parent, `mcp-tool-adapter-${uid}`, "own-group-linux-x64-1"));
    expect((await stat(join(parent, `mcp-tool-adapter-${uid}`))).mode & 0o777).toBe(0o700);
    expect((await readFile(file)).toString("base64")).toBe(NATIVE_LAUNCHER_IMAGE);
    const run = spawnSync(file, ["/bin/sh", "sh", "-c", 'echo "$$ $(ps -o pgid= -p $$ | tr -d " ")"'], {
      encoding: "utf8",
    });
    const [pid, pgid] = run.stdout.trim().split(" ");
    expect(pid).toBe(String(run.pid));
    expect(pgid).toBe(pid);
  });

  it("replaces a copy that does not hold the image", async () => {
    const parent = await scratch();
    const directory = join(parent, `mcp-tool-adapter-${uid}`);
    await mkdir(directory, { mode: 0o700 });
    await writeFile(join(directory, "own-group-linux-x64-1"), "#!/bin/sh\necho not the launcher\n", { mode: 0o700 });
    const file = findNativeLauncher(nodePlatform, parent)!;
    expect((await readFile(file)).toString("base64")).toBe(NATIVE_LAUNCHER_IMAGE);
  });

  it("is not used from a directory others can write to (perl is the launcher then)", async () => {
    const parent = await scratch();
    const directory = join(parent, `mcp-tool-adapter-${uid}`);
    await mkdir(directory);
    await chmod(directory, 0o777);
    expect(findNativeLauncher(nodePlatform, parent)).toBeUndefined();
  });

  it("is not used on a platform that leaves its processor out, nor on another processor", async () => {
    const parent = await scratch();
    const { arch: _real, ...withoutArch } = nodePlatform;
    expect(findNativeLauncher(withoutArch, parent)).toBeUndefined();
    expect(findNativeLauncher({ ...nodePlatform, arch: "arm64" }, parent)).toBeUndefined();
    expect(findNativeLauncher(nodePlatform, parent)).toBeDefined();
  });

  it("says so on stderr and exits 127 when the server vanished before its exec", async () => {
    const file = findNativeLauncher(nodePlatform, await scratch())!;
    const run = spawnSync(file, ["/nonexistent/server", "server"], { encoding: "utf8" });
    expect(run.status).toBe(127);
    expect(run.stderr).toBe("mcp-tool-adapter: could not execute the MCP server\n");
  });
});
