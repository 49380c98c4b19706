import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expectNoLeakedProcesses, leakMarkerEnv } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURE_BOUND_MS } from "./run-fixture.js";

// `mcp-tool-adapter --help | head -1`: the reader closes the pipe before the command has written
// everything. The command must end quietly, not with an unhandled EPIPE and a stack trace.

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const MAIN = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

afterEach(async () => {
  await expectNoLeakedProcesses();
});

/** Runs the bin with its stdout's reading end closed before it writes anything. */
async function runWithStdoutClosed(args: readonly string[]) {
  const child = spawn(process.execPath, ["--conditions=@mcp-tool-adapter/source", "--import", "tsx", MAIN, ...args], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...leakMarkerEnv() },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let timer: NodeJS.Timeout | undefined;
  const exit = await Promise.race([
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    ),
    new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), FIXTURE_BOUND_MS))),
  ]).finally(() => clearTimeout(timer));
  if (exit === "hung") child.kill("SIGKILL");
  return { exit, stderr };
}

describe("a reader that leaves early", () => {
  it.each([[["--help"]], [["tools", "--help"]]])(
    "%j ends with exit code 0 and nothing on stderr",
    async (args) => {
      const { exit, stderr } = await runWithStdoutClosed(args);
      expect(exit, stderr).toEqual({ code: 0, signal: null });
      expect(stderr).toBe("");
    },
    2 * FIXTURE_BOUND_MS,
  );
});
