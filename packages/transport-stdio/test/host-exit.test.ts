import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  expectNoLeakedProcesses,
  hostileServerConfig,
  leakMarkerEnv,
  parseGrandchildPids,
  watchProcessGroup,
} from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import type { ProcessFamilyStrategy } from "../src/index.js";
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
  /** The pid of the server's grandchild (known once `serverPid` is). */
  grandchildPid: () => number;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * A real host process running our transport; its server survives stdin EOF and SIGTERM, and has
 * started a grandchild (a daemon in its own session with "tagged", a plain child with "group").
 */
function startHost(mode: "exit" | "wait" | "own-sigint-handler", family: ProcessFamilyStrategy): Host {
  // --never-initialize keeps the server alive after its stdin closes; --ignore-sigterm makes only SIGKILL work;
  // the one-byte stderr flood tells the host the server's handlers are installed.
  const server = hostileServerConfig({
    neverInitialize: true,
    ignoreSigterm: true,
    stderrFloodBytes: 1,
    maxLifetimeMs: 60_000,
    spawnGrandchild: "serve",
    grandchildStyle: family === "tagged" ? "daemon" : "plain",
    grandchildLifetimeMs: 60_000,
  });
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "--conditions=@mcp-tool-adapter/source",
      HOST_SCRIPT,
      mode,
      family,
      server.command,
      ...server.args,
    ],
    {
      cwd: PACKAGE_DIR,
      env: { ...process.env, ...leakMarkerEnv() },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
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
          // Redundant with the leak marker, and independent of it: a "group" server leads its group.
          if (family === "group") watchProcessGroup(pid);
          return pid;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })(),
    BOUND_MS,
    "the host starting its server",
  );
  const grandchildPid = (): number => {
    const [pid] = parseGrandchildPids(output);
    if (pid === undefined) throw new Error(`the host's server reported no grandchild: ${output}`);
    return pid;
  };
  return { serverPid, grandchildPid, output: () => output, exited, kill: (signal) => child.kill(signal) };
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

describe.each(["tagged", "group"] as const)(
  "when the host process ends, its servers go too (processFamily %s)",
  { timeout: 120_000 },
  (family) => {
    it("on process.exit()", async () => {
      const host = startHost("exit", family);
      const serverPid = await host.serverPid;
      // Started before its pid was printed; the host exits at once, so it may already be gone here.
      const grandchildPid = host.grandchildPid();
      expect(await within(host.exited, BOUND_MS, "host exit")).toEqual({ code: 0, signal: null });
      await waitUntilGone(serverPid);
      await waitUntilGone(grandchildPid);
    });

    it.each(["SIGTERM", "SIGINT"] as const)("on %s, after which the host still dies of that signal", async (signal) => {
      const host = startHost("wait", family);
      const serverPid = await host.serverPid;
      const grandchildPid = host.grandchildPid();
      expect(isAlive(serverPid)).toBe(true);
      host.kill(signal);
      expect(await within(host.exited, BOUND_MS, "host exit")).toEqual({ code: null, signal });
      await waitUntilGone(serverPid);
      await waitUntilGone(grandchildPid);
    });

    it("leaves SIGINT to a host that handles it itself, and still cleans up when that host exits", async () => {
      const host = startHost("own-sigint-handler", family);
      const serverPid = await host.serverPid;
      host.kill("SIGINT");
      expect(await within(host.exited, BOUND_MS, "host exit")).toEqual({ code: 7, signal: null });
      expect(host.output()).toContain("host-handled-sigint");
      await waitUntilGone(serverPid);
      await waitUntilGone(host.grandchildPid());
    });
  },
);
