import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expectNoLeakedProcesses, hostileServerConfig, watchProcessGroup } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { isAlive, within } from "./helpers.js";

const HOST_SCRIPT = fileURLToPath(new URL("fixtures/host.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
// Starting a host means tsx compiling our sources plus two Node start-ups: generous bounds, because
// the machine may be loaded; these are ceilings for a hang, not speed assertions.
const BOUND_MS = 40_000;

afterEach(async () => {
  await expectNoLeakedProcesses();
});

interface Host {
  serverPid: Promise<number>;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** A real host process running our transport; its server survives stdin EOF and SIGTERM. */
function startHost(mode: "exit" | "wait" | "own-sigint-handler"): Host {
  // --never-initialize keeps the server alive after its stdin closes; --ignore-sigterm makes only SIGKILL work;
  // the one-byte stderr flood tells the host the server's handlers are installed.
  const server = hostileServerConfig({ neverInitialize: true, ignoreSigterm: true, stderrFloodBytes: 1, maxLifetimeMs: 60_000 });
  const child = spawn(process.execPath, ["--import", "tsx", HOST_SCRIPT, mode, server.command, ...server.args], {
    cwd: PACKAGE_DIR,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const serverPid = within(
    (async () => {
      for (;;) {
        const match = /server-pid=(\d+)/.exec(output);
        if (match) {
          const pid = Number(match[1]);
          watchProcessGroup(pid);
          return pid;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })(),
    BOUND_MS,
    "the host starting its server",
  );
  return { serverPid, output: () => output, exited, kill: (signal) => child.kill(signal) };
}

async function waitUntilGone(pid: number): Promise<void> {
  await within(
    (async () => {
      while (isAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
    })(),
    BOUND_MS,
    `server ${pid} going away`,
  );
}

describe("when the host process ends, its servers go too", { timeout: 120_000 }, () => {
  it("on process.exit()", async () => {
    const host = startHost("exit");
    const serverPid = await host.serverPid;
    expect(await within(host.exited, BOUND_MS, "host exit")).toEqual({ code: 0, signal: null });
    await waitUntilGone(serverPid);
  });

  it.each(["SIGTERM", "SIGINT"] as const)("on %s, after which the host still dies of that signal", async (signal) => {
    const host = startHost("wait");
    const serverPid = await host.serverPid;
    expect(isAlive(serverPid)).toBe(true);
    host.kill(signal);
    expect(await within(host.exited, BOUND_MS, "host exit")).toEqual({ code: null, signal });
    await waitUntilGone(serverPid);
  });

  it("leaves SIGINT to a host that handles it itself, and still cleans up when that host exits", async () => {
    const host = startHost("own-sigint-handler");
    const serverPid = await host.serverPid;
    host.kill("SIGINT");
    expect(await within(host.exited, BOUND_MS, "host exit")).toEqual({ code: 7, signal: null });
    expect(host.output()).toContain("host-handled-sigint");
    await waitUntilGone(serverPid);
  });
});
