import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createTempDirectory,
  expectNoLeakedProcesses,
  leakMarkerEnv,
  listProcesses,
  readProcess,
  type TempDirectory,
} from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { canReadProcEnvironments, environHasEntry, listRunningProcesses, readProcStat } from "../src/proc-table.js";
import { ProcFamily, SERVER_TOKEN_ENV_VAR } from "../src/proc-family.js";
import { waitFor } from "./helpers.js";

// Random per run: CI runs this file on two Node versions at once, and a fixed token let one run's scans find the other's processes.
const TOKEN = randomBytes(16).toString("hex");
const ENTRY = `${SERVER_TOKEN_ENV_VAR}=${TOKEN}`;

const tempDirectories: TempDirectory[] = [];
const children: ChildProcess[] = [];
/** Processes a test may leave that no leak check could find (re-parented, with an empty environment). */
const strays: number[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone, as it should be.
    }
  }
  await Promise.all(tempDirectories.splice(0).map((directory) => directory.remove()));
  await expectNoLeakedProcesses();
});

interface FakeProcess {
  pid: number;
  ppid?: number;
  pgid?: number;
  state?: string;
  startTime?: number;
  comm?: string;
  /** Strings of the environment; `"unreadable"` makes environ a directory (reading it fails); absent: no environ file (vanished). */
  environ?: readonly string[] | "unreadable";
  /** Written to `task/<pid>/children` (absent: the kernel offers no children files). */
  children?: readonly number[];
  /** Write no stat file: the process went away between the directory listing and the read. */
  noStat?: boolean;
  rawStat?: string;
}

/** A /proc lookalike in a temp directory: real files and real read failures, for cases live processes cannot be made to show on demand. */
async function fakeProc(processes: readonly FakeProcess[]): Promise<string> {
  const directory = await createTempDirectory();
  tempDirectories.push(directory);
  await mkdir(join(directory.path, "net"));
  for (const fake of processes) {
    const dir = join(directory.path, String(fake.pid));
    await mkdir(dir);
    if (fake.noStat !== true) {
      // Fields after the command: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
      // utime stime cutime cstime priority nice threads itrealvalue starttime ...
      const after = [
        fake.state ?? "S",
        fake.ppid ?? 1,
        fake.pgid ?? 1,
        1,
        0,
        -1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        20,
        0,
        1,
        0,
        fake.startTime ?? 5000,
        0,
        0,
      ];
      await writeFile(join(dir, "stat"), fake.rawStat ?? `${fake.pid} (${fake.comm ?? "fake"}) ${after.join(" ")}\n`);
    }
    if (fake.children !== undefined) {
      await mkdir(join(dir, "task", String(fake.pid)), { recursive: true });
      await writeFile(
        join(dir, "task", String(fake.pid), "children"),
        fake.children.map((child) => `${child} `).join(""),
      );
    }
    if (fake.environ === "unreadable") await mkdir(join(dir, "environ"));
    else if (fake.environ !== undefined)
      await writeFile(join(dir, "environ"), fake.environ.map((entry) => `${entry}\0`).join(""));
  }
  return directory.path;
}

describe("the family token", () => {
  it("is a fresh 128-bit hex token per family unless one is given", () => {
    const tokens = [new ProcFamily("/proc"), new ProcFamily("/proc")].map((f) => f.environment[SERVER_TOKEN_ENV_VAR]);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(tokens[0]).not.toBe(tokens[1]);
  });
});

describe("reading /proc", () => {
  it("parses stat lines whose command name holds spaces and parentheses, and rejects malformed ones", async () => {
    const root = await fakeProc([
      { pid: 10, ppid: 7, pgid: 9, startTime: 4242, comm: "a) (b c" },
      { pid: 11, rawStat: "not a stat line" },
    ]);
    expect(readProcStat(10, root)).toEqual({ pid: 10, ppid: 7, pgid: 9, sid: 1, state: "S", startTime: 4242 });
    expect(readProcStat(11, root)).toBeUndefined();
    expect(readProcStat(12, root)).toBeUndefined();
  });

  it("lists running processes only: no zombies, no vanished entries, no non-pid entries", async () => {
    const root = await fakeProc([
      { pid: 20 },
      { pid: 21, state: "Z" },
      { pid: 22, noStat: true },
      { pid: 23, state: "X" },
      { pid: 24, state: "R" },
    ]);
    expect(
      listRunningProcesses(root)
        .map((stat) => stat.pid)
        .sort(),
    ).toEqual([20, 24]);
    expect(listRunningProcesses(join(root, "missing"))).toEqual([]);
  });

  it("matches whole environment strings only, and treats unreadable or vanished environments as not matching", async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `FILLER_${i}=${"x".repeat(60)}`);
    const root = await fakeProc([
      { pid: 30, environ: ["A=1", ENTRY, "B=2"] },
      { pid: 31, environ: [ENTRY] },
      { pid: 32, environ: [`${ENTRY}-and-more`, `X${ENTRY}`, `${SERVER_TOKEN_ENV_VAR}=other`] },
      { pid: 33, environ: "unreadable" },
      { pid: 34 },
      { pid: 35, environ: [...big, ENTRY] },
      { pid: 36, environ: [] },
    ]);
    expect(environHasEntry(30, ENTRY, root)).toBe(true);
    expect(environHasEntry(31, ENTRY, root)).toBe(true);
    expect(environHasEntry(32, ENTRY, root)).toBe(false);
    expect(environHasEntry(33, ENTRY, root)).toBe(false);
    expect(environHasEntry(34, ENTRY, root)).toBe(false);
    expect(environHasEntry(35, ENTRY, root)).toBe(true);
    expect(environHasEntry(36, ENTRY, root)).toBe(false);
    expect(environHasEntry(99, ENTRY, root)).toBe(false);
  });

  it("asks about every process on this machine without throwing, whatever it may not read (kernel threads, other users)", () => {
    const running = listRunningProcesses();
    expect(running.map((stat) => stat.pid)).toContain(process.pid);
    for (const { pid } of listProcesses()) expect(typeof environHasEntry(pid, ENTRY)).toBe("boolean");
    expect(canReadProcEnvironments()).toBe(true);
    expect(canReadProcEnvironments("/nonexistent/proc")).toBe(false);
  });
});

describe("finding a tagged family", () => {
  it("takes the leader, token carriers and their descendants; leaves out zombies, older processes, look-alikes and the host", async () => {
    const root = await fakeProc([
      { pid: 100, ppid: 1, startTime: 1000, environ: [ENTRY] }, // the leader
      { pid: 101, ppid: 100, startTime: 1001, environ: [] }, // scrubbed child of the leader
      { pid: 102, ppid: 101, startTime: 1002, environ: "unreadable" }, // its child
      { pid: 103, ppid: 1, startTime: 1003, environ: ["A=1", ENTRY] }, // re-parented orphan
      { pid: 104, ppid: 103, startTime: 1004 }, // scrubbed child of the orphan, environ gone
      { pid: 105, ppid: 1, startTime: 999, environ: [ENTRY] }, // older than the leader: cannot be ours
      { pid: 106, ppid: 1, startTime: 1005, environ: [`${ENTRY}0`] }, // look-alike
      { pid: 107, ppid: 100, startTime: 1006, state: "Z", environ: [ENTRY] }, // zombie
      { pid: 108, ppid: 107, startTime: 1007, noStat: true, environ: [ENTRY] }, // vanished mid-scan
      { pid: process.pid, ppid: 1, startTime: 1008, environ: [ENTRY] }, // the host itself
    ]);
    const family = new ProcFamily(root, { token: TOKEN });
    expect(family.environment).toEqual({ [SERVER_TOKEN_ENV_VAR]: TOKEN });
    family.adopt(100);
    const found = family.find();
    expect([...found.pids].sort((a, b) => a - b)).toEqual([100, 101, 102, 103, 104]);
    expect(found.empty).toBe(false);
  });

  it("does not take, or keep, a process that reuses a member's pid", async () => {
    const root = await fakeProc([
      { pid: 200, ppid: 1, startTime: 3000, environ: [] },
      { pid: 201, ppid: 200, startTime: 3001, environ: [] },
    ]);
    const family = new ProcFamily(root, { token: TOKEN });
    family.adopt(200);
    const found = family.find();
    expect([...found.pids].sort()).toEqual([200, 201]);
    // Both end and their pids go to unrelated processes (same pids, later start times).
    await writeFile(join(root, "200", "stat"), `200 (other) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 3500 0 0\n`);
    await writeFile(join(root, "201", "stat"), `201 (other) S 200 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 3501 0 0\n`);
    expect(found.stillRunning().empty).toBe(true);
    expect(family.find(found).empty).toBe(true);
  });

  it("scans in one synchronous turn share one read of /proc (as at host exit); the next turn reads afresh", async () => {
    const root = await fakeProc([{ pid: 300, ppid: 1, startTime: 7000, environ: [ENTRY] }]);
    const family = new ProcFamily(root, { token: TOKEN });
    family.adopt(300);
    expect(family.find().pids).toEqual([300]);
    // A process appears within the same turn: that turn's scans do not see it, the next one does.
    mkdirSync(join(root, "301"));
    writeFileSync(join(root, "301", "stat"), "301 (late) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7001 0 0\n");
    writeFileSync(join(root, "301", "environ"), `${ENTRY}\0`);
    expect(family.find().pids).toEqual([300]);
    await Promise.resolve();
    expect([...family.find().pids].sort()).toEqual([300, 301]);
  });

  it("after a whole scan, a rescan reads only the pids handed out since (and the few a fork under way held); a wrapped, far-moved or missing counter means a whole scan again", async () => {
    const root = await fakeProc([{ pid: 500, ppid: 1, startTime: 8000, environ: [ENTRY] }]);
    const counter = (lastPid: number, forks: number) =>
      Promise.all([
        writeFile(join(root, "loadavg"), `0.50 0.40 0.30 2/180 ${lastPid}\n`),
        writeFile(join(root, "stat"), `cpu  1 2 3 4\nintr 5 6\nctxt 7\nbtime 8\nprocesses ${forks}\nprocs_running 2\n`),
      ]);
    const addProcess = async (pid: number, startTime: number) => {
      await mkdir(join(root, String(pid)));
      await writeFile(
        join(root, String(pid), "stat"),
        `${pid} (late) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 ${startTime} 0 0\n`,
      );
      await writeFile(join(root, String(pid), "environ"), `${ENTRY}\0`);
    };
    await counter(520, 90_000);
    const family = new ProcFamily(root, { token: TOKEN });
    family.adopt(500);
    const first = family.find();
    expect(first.pids).toEqual([500]);
    // Since then: a process with a pid handed out after the scan; one whose fork was under way
    // (its pid just before the counter); and one with an old pid, which only a wrap of the pid
    // counter could give to a new process.
    await addProcess(530, 8030);
    await addProcess(515, 8015);
    await addProcess(450, 8050);
    await counter(540, 90_020);
    await Promise.resolve();
    const rescan = family.find(first);
    expect([...rescan.pids].sort()).toEqual([500, 515, 530]);
    // Chained: the next rescan starts where this one's counter stood.
    await addProcess(545, 8045);
    await counter(550, 90_030);
    await Promise.resolve();
    expect([...family.find(rescan).pids].sort()).toEqual([500, 515, 530, 545]);

    for (const [what, write] of [
      ["wrapped", () => counter(460, 90_040)],
      ["far moved", () => counter(540, 95_000)],
      ["missing", () => rm(join(root, "loadavg"))],
    ] as const) {
      await write();
      await Promise.resolve();
      expect([...family.find(first).pids].sort(), `counter ${what}`).toEqual([450, 500, 515, 530, 545]);
    }
  });

  it("on live processes: a rescan adds processes started after the first scan and keeps members it would now miss", async () => {
    const family = new ProcFamily("/proc", { token: TOKEN });
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...leakMarkerEnv(), ...family.environment };
    // The leader starts a child with a scrubbed environment: a member only while the leader lives.
    const leader = track(spawn("sh", ["-c", "env -i sleep 61 & wait"], { env, stdio: "ignore" }));
    family.adopt(leader.pid!);
    await waitFor(
      () => childrenOf(leader.pid!).some((pid) => readProcess(pid)?.cmdline === "sleep 61"),
      "the scrubbed child starting",
    );
    const [scrubbed] = childrenOf(leader.pid!);
    strays.push(scrubbed!);
    const first = family.find();
    expect([...first.pids].sort((a, b) => a - b)).toEqual([leader.pid!, scrubbed!].sort((a, b) => a - b));

    const late = track(spawn("sleep", ["62"], { env, stdio: "ignore" }));
    const stranger = track(
      spawn("sleep", ["63"], { env: { ...env, [SERVER_TOKEN_ENV_VAR]: "f".repeat(32) }, stdio: "ignore" }),
    );
    await Promise.all([once(late, "spawn"), once(stranger, "spawn")]);
    // The leader dies: its scrubbed child is re-parented and carries nothing a scan could find.
    leader.kill("SIGKILL");
    await waitFor(() => readProcStat(scrubbed!)?.ppid !== leader.pid, "the scrubbed child being re-parented");
    expect(family.find().pids).toEqual([late.pid]);
    const rescan = family.find(first);
    expect([...rescan.pids].sort((a, b) => a - b)).toEqual([scrubbed!, late.pid!].sort((a, b) => a - b));

    rescan.signal("SIGKILL");
    await waitFor(() => rescan.stillRunning().empty, "the members going");
    expect(readProcStat(stranger.pid!)?.state).not.toBe("Z");
  });
});

describe("snapshots of a family (remember)", () => {
  it.each([
    ["the children files", true],
    ["a full scan where the kernel has no children files", false],
  ])(
    "note descendants through %s and keep them once their parent died and nothing else ties them to the server",
    async (_how, withChildrenFiles) => {
      const children = (pids: number[]) => (withChildrenFiles ? { children: pids } : {});
      const root = await fakeProc([
        { pid: 400, ppid: 1, startTime: 9000, environ: [ENTRY], ...children([401]) }, // the leader
        { pid: 401, ppid: 400, startTime: 9001, environ: [], ...children([402]) }, // scrubbed child
        { pid: 402, ppid: 401, startTime: 9002, environ: [], ...children([]) }, // and its child
        { pid: 403, ppid: 1, startTime: 9003, environ: [], ...children([]) }, // a stranger
      ]);
      const family = new ProcFamily(root, { token: TOKEN });
      family.adopt(400);
      expect(family.remember().sort()).toEqual([401, 402]);
      expect(family.remember()).toEqual([]);
      // The leader dies and its children are re-parented: no token, no parent of the family.
      await writeFile(join(root, "400", "stat"), `400 (gone) Z 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9000 0 0\n`);
      await writeFile(join(root, "401", "stat"), `401 (orphan) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9001 0 0\n`);
      await Promise.resolve();
      expect([...family.find().pids].sort()).toEqual([401, 402]);
      // A remembered pid reused by another process is not the member any more.
      await writeFile(join(root, "402", "stat"), `402 (reuse) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 9500 0 0\n`);
      await Promise.resolve();
      expect(family.find().pids).toEqual([401]);
    },
  );
});

function track(child: ChildProcess): ChildProcess {
  children.push(child);
  return child;
}

function childrenOf(pid: number): number[] {
  return listRunningProcesses()
    .filter((stat) => stat.ppid === pid)
    .map((stat) => stat.pid);
}
