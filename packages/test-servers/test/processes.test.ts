import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { expectNoLeakedProcesses, listDescendantProcesses, listOwnedProcesses, readProcess, waitForNoDescendants, watchProcessGroup } from "../src/index.js";

afterEach(async () => {
  await expectNoLeakedProcesses();
});

describe("process leak checks", () => {
  it("lists a live child with its pid, ppid, pgid and command line", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const found = listDescendantProcesses().find((info) => info.pid === child.pid);
    expect(found).toMatchObject({ pid: child.pid, ppid: process.pid, pgid: readProcess(process.pid)!.pgid, cmdline: "sleep 30" });
    child.kill("SIGKILL");
    expect(await waitForNoDescendants(5000)).toEqual([]);
  });

  it("fails naming a leaked process, and kills it", async () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    await new Promise((resolve) => child.once("spawn", resolve));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    await expect(expectNoLeakedProcesses({ timeoutMs: 100 })).rejects.toThrow(new RegExp(`pid ${child.pid} .*sleep 30`));
    await exited;
  });

  it("keeps finding an orphan through its watched process group", async () => {
    // A detached shell starts a sleep in its group and exits: the sleep is re-parented away from us.
    const shell = spawn("sh", ["-c", "sleep 30 & echo $!"], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
    const orphanPid = await new Promise<number>((resolve) => shell.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    await new Promise((resolve) => shell.once("exit", resolve));
    expect(listDescendantProcesses().some((info) => info.pid === orphanPid)).toBe(false);

    watchProcessGroup(shell.pid!);
    expect(listOwnedProcesses().map((info) => info.pid)).toContain(orphanPid);
    await expect(expectNoLeakedProcesses({ timeoutMs: 100 })).rejects.toThrow(`pid ${orphanPid}`);
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
      await expect(expectNoLeakedProcesses({ timeoutMs: 100, ignore: /^sleep 31$/ })).rejects.toThrow(new RegExp(`pid ${leak.pid} .*sleep 32`));
      await exited;
      expect(readProcess(helper.pid!)).toBeDefined();
    } finally {
      helper.kill("SIGKILL");
      await new Promise((resolve) => helper.once("exit", resolve));
    }
  });
});
