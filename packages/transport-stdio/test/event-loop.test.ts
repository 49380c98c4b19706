import { createHook } from "node:async_hooks";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { holdsProcessOpen } from "@mcp-tool-adapter/core";
import { expectNoLeakedProcesses, hostileServerConfig, leakMarkerEnv } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import type { ProcessFamilyStrategy } from "../src/index.js";
import { observe, within } from "./helpers.js";

// Issue 15: after close() nothing of the transport may keep Node's event loop alive, or every
// script and CLI command sits out the kill grace (2 s by default) before it can exit.

const FIXTURE = fileURLToPath(new URL("fixtures/exit-by-itself.ts", import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
/** A grace no test could sit out: if close() left its timer running, the script would hang. */
const HOUR_MS = 3_600_000;
// A ceiling for a hang (tsx compiling our sources on a loaded machine), not a speed assertion.
const BOUND_MS = 60_000;
/** Handles that keep the event loop alive and that a transport could leave behind. */
const LOOP_HOLDERS = ["Timeout", "PipeWrap", "ProcessWrap", "TTYWrap", "TCPWrap"];

afterEach(async () => {
  await expectNoLeakedProcesses();
});

function loopHolders(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo())
    if (LOOP_HOLDERS.includes(type)) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/**
 * The holders there are now beyond those of `before` (the runner's own may come and go meanwhile).
 * Asked one loop iteration later: a handle Node is already closing (the exited child's) is listed
 * until its close callback ran, at the end of the iteration, which holds the loop no further.
 */
async function addedSince(before: Record<string, number>): Promise<Record<string, number>> {
  for (let turn = 0; turn < 2; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  const added: Record<string, number> = {};
  for (const [type, count] of Object.entries(loopHolders()))
    if (count > (before[type] ?? 0)) added[type] = count - (before[type] ?? 0);
  return added;
}

/**
 * Timers of `ms` (our killGraceMs) started from now on and still pending, keeping the loop alive.
 * Watched by identity through async_hooks: a count of all timers would also see the runner's own
 * come and go.
 */
function watchTimersOf(ms: number): { pending(): number; stop(): void } {
  const live = new Map<number, { _idleTimeout?: number; hasRef?: () => boolean }>();
  const hook = createHook({
    init(asyncId, type, _trigger, resource) {
      if (type === "Timeout") live.set(asyncId, resource);
    },
    destroy(asyncId) {
      live.delete(asyncId);
    },
  }).enable();
  return {
    pending: () => [...live.values()].filter((timer) => timer._idleTimeout === ms && timer.hasRef?.() !== false).length,
    stop: () => hook.disable(),
  };
}

describe.each(["group", "tagged"] as const satisfies readonly ProcessFamilyStrategy[])(
  "after close() (processFamily %s)",
  (processFamily) => {
    it("no timer, pipe or process handle of the transport is left, whether the server exited at stdin EOF or crashed first", async () => {
      const before = loopHolders();
      const graceTimers = watchTimersOf(HOUR_MS);
      onTestFinished(() => graceTimers.stop());

      const polite = observe({ command: "cat" }, { processFamily, killGraceMs: HOUR_MS });
      await polite.transport.start();
      await within(polite.transport.close(), BOUND_MS, "close");
      expect(polite.transport.exit).toEqual({ code: 0, signal: null });
      expect(await addedSince(before)).toEqual({});
      expect(graceTimers.pending()).toBe(0);

      const crashing = observe(hostileServerConfig({ spawnGrandchild: "serve" }), {
        processFamily,
        killGraceMs: HOUR_MS,
      });
      const client = new Client({ name: "event-loop-test", version: "1.0.0" });
      await client.connect(crashing.transport, { timeout: BOUND_MS });
      await expect(client.callTool({ name: "crash", arguments: {} })).rejects.toThrow();
      await within(crashing.closed, BOUND_MS, "onclose after the crash");
      await within(client.close(), BOUND_MS, "client close");
      await within(crashing.transport.close(), BOUND_MS, "transport close");
      expect(await addedSince(before)).toEqual({});
      expect(graceTimers.pending()).toBe(0);
    });

    it("while open, the server's process and pipes hold the event loop, as holdsProcessOpen tells a session", async () => {
      const before = loopHolders();
      const open = observe({ command: "cat" }, { processFamily });
      expect(holdsProcessOpen(open.transport)).toBe(true);
      await open.transport.start();
      const added = await addedSince(before);
      expect(added.ProcessWrap).toBeGreaterThanOrEqual(1);
      expect(added.PipeWrap).toBeGreaterThanOrEqual(2);
      await within(open.transport.close(), BOUND_MS, "close");
    });

    it(
      "a script that connects, calls and closes exits by itself, even with an hour of killGraceMs",
      { timeout: 2 * BOUND_MS },
      async () => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", "--conditions=@mcp-tool-adapter/source", FIXTURE, processFamily, String(HOUR_MS)],
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
        const exit = await within(exited, BOUND_MS, "the script exiting by itself").catch((error: unknown) => {
          child.kill("SIGKILL");
          throw new Error(`${String(error)}; its output:\n${output}`);
        });
        expect(exit, output).toEqual({ code: 0, signal: null });
        expect(output).toContain('answer=[{"type":"text","text":"{\\"hello\\":\\"world\\"}"}]');
        expect(output).toMatch(/closed-at=\d+/);
      },
    );
  },
);
