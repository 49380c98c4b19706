import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  expectNoLeakedProcesses,
  hasLeakMarker,
  LEAK_MARKER_ENV_NAME,
  leakMarkerEnv,
  listDescendantProcesses,
  listOwnedProcesses,
  readProcess,
  waitForNoDescendants,
  watchProcess,
  watchProcessGroup,
} from "../src/index.js";

/**
 * The pid a `sh -c "setsid CMD & echo $!"` printed, once the shell has exited and that process
 * runs CMD as a session leader (a non-interactive shell's background job is no group leader, so
 * setsid execs in place rather than forking).
 */
async function daemonPid(shell: ChildProcessByStdio<null, Readable, null>, cmdline: string): Promise<number> {
  const pid = await new Promise<number>((resolve) =>
    shell.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  await new Promise((resolve) => shell.once("exit", resolve));
  const deadline = Date.now() + 5000;
  for (let info = readProcess(pid); info?.cmdline !== cmdline || info.sid !== pid; info = readProcess(pid)) {
    if (Date.now() > deadline)
      throw new Error(`pid ${pid} never became a session leader running "${cmdline}": ${JSON.stringify(info)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return pid;
}

afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("process leak checks", () => {
  it("lists a live child with its pid, ppid, pgid and command line", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const found = listDescendantProcesses().find((info) => info.pid === child.pid);
    expect(found).toMatchObject({
      pid: child.pid,
      ppid: process.pid,
      pgid: readProcess(process.pid)!.pgid,
      cmdline: "sleep 30",
    });
    child.kill("SIGKILL");
    expect(await waitForNoDescendants(5000)).toEqual([]);
  });

  it("fails naming a leaked process, and kills it", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await expect(expectNoLeakedProcesses({ timeoutMs: 100 })).rejects.toThrow(
      new RegExp(`pid ${child.pid} .*sleep 30`),
    );
    await exited;
  });

  it("keeps finding an orphan through its watched process group", async () => {
    // A detached shell starts a sleep in its group and exits: the sleep is re-parented away from us.
    const shell = spawn("sh", ["-c", "sleep 30 & echo $!"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    // Listened for at once: the shell may exit before its output has been read.
    const shellExited = new Promise((resolve) => shell.once("exit", resolve));
    const orphanPid = await new Promise<number>((resolve) =>
      shell.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    await shellExited;
    expect(listDescendantProcesses().some((info) => info.pid === orphanPid)).toBe(false);

    watchProcessGroup(shell.pid!);
    expect(listOwnedProcesses().map((info) => info.pid)).toContain(orphanPid);
    await expect(expectNoLeakedProcesses({ timeoutMs: 100 })).rejects.toThrow(`pid ${orphanPid}`);
  });

  it("keeps finding an orphan that moved to a session of its own through the leak marker in its environment", async () => {
    // Not detached and never watched: the shell starts a daemon (setsid) and exits, so the sleep is
    // neither our descendant nor in any group we know; only the inherited marker gives it away.
    const shell = spawn("sh", ["-c", "setsid sleep 33 </dev/null >/dev/null 2>&1 & echo $!"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...leakMarkerEnv() },
      stdio: ["ignore", "pipe", "ignore"],
    });
    const orphanPid = await daemonPid(shell, "sleep 33");
    expect(readProcess(orphanPid)!.sid).not.toBe(readProcess(process.pid)!.sid);
    expect(listDescendantProcesses().some((info) => info.pid === orphanPid)).toBe(false);
    expect(hasLeakMarker(orphanPid)).toBe(true);
    expect(listOwnedProcesses().map((info) => info.pid)).toContain(orphanPid);
    await expect(expectNoLeakedProcesses({ timeoutMs: 100 })).rejects.toThrow(`pid ${orphanPid}`);
  });

  it("keeps finding a watched orphan that has no marker, no group of ours and a session of its own", async () => {
    const shell = spawn("sh", ["-c", "setsid sleep 35 </dev/null >/dev/null 2>&1 & echo $!"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    const orphanPid = await daemonPid(shell, "sleep 35");
    expect(listOwnedProcesses().map((info) => info.pid)).not.toContain(orphanPid);
    watchProcess(orphanPid);
    expect(listOwnedProcesses().map((info) => info.pid)).toContain(orphanPid);
    await expect(expectNoLeakedProcesses({ timeoutMs: 100 })).rejects.toThrow(`pid ${orphanPid}`);
  });

  it("does not take a process carrying another test process's marker for ours", async () => {
    const shell = spawn("sh", ["-c", "setsid sleep 34 </dev/null >/dev/null 2>&1 & echo $!"], {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", [LEAK_MARKER_ENV_NAME]: "someone-else" },
      stdio: ["ignore", "pipe", "ignore"],
    });
    const strangerPid = await daemonPid(shell, "sleep 34");
    try {
      expect(hasLeakMarker(strangerPid)).toBe(false);
      expect(listOwnedProcesses().map((info) => info.pid)).not.toContain(strangerPid);
    } finally {
      process.kill(strangerPid, "SIGKILL");
    }
  });

  it("never watches the test process's own group or session (they hold the test runner)", () => {
    const self = readProcess(process.pid)!;
    watchProcessGroup(self.pgid);
    watchProcessGroup(self.sid);
    const owned = listOwnedProcesses().map((info) => info.pid);
    expect(owned).not.toContain(process.ppid);
    expect(owned).toEqual(listDescendantProcesses().map((info) => info.pid));
  });
});

describe("process leak checks: ignore", () => {
  it("leaves processes matched by ignore alone (pattern, substring or predicate) and still fails on the others", async () => {
    const helper = spawn("sleep", ["31"], { stdio: "ignore" });
    await new Promise((resolve) => helper.once("spawn", resolve));
    try {
      await expectNoLeakedProcesses({ timeoutMs: 100, ignore: /^sleep 31$/ });
      await expectNoLeakedProcesses({ timeoutMs: 100, ignore: "sleep 31" });
      await expectNoLeakedProcesses({ timeoutMs: 100, ignore: [(info) => info.pid === helper.pid] });
      expect(readProcess(helper.pid!)?.state).not.toBe("Z");

      const leak = spawn("sleep", ["32"], { stdio: "ignore" });
      await new Promise((resolve) => leak.once("spawn", resolve));
      const exited = new Promise((resolve) => leak.once("exit", resolve));
      await expect(expectNoLeakedProcesses({ timeoutMs: 100, ignore: /^sleep 31$/ })).rejects.toThrow(
        new RegExp(`pid ${leak.pid} .*sleep 32`),
      );
      await exited;
      expect(readProcess(helper.pid!)).toBeDefined();
    } finally {
      helper.kill("SIGKILL");
      await new Promise((resolve) => helper.once("exit", resolve));
    }
  });
});
