import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { elicitingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_BIN_PATH } from "./fixtures/run-bin.js";

// The CLI's elicitation prompt on a real terminal: the real CLI runs under a pseudo-terminal
// (util-linux `script`), so stdin is a TTY and @inquirer/prompts asks; we type the answers.
const SCRIPT = "/usr/bin/script";
// Bounds a hang only (a prompt that never shows); nothing is asserted about time.
const WAIT_LIMIT_MS = 90_000;

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** The CLI under a pseudo-terminal, with `expect`-style waiting on what it shows. */
function cliOnTerminal(argv: string[], cwd: string) {
  // A pseudo-terminal starts with 0 columns, which spinners and prompts cannot draw in: give it a size.
  const command = `stty cols 120 rows 40; exec ${[process.execPath, CLI_BIN_PATH, ...argv].map(quote).join(" ")}`;
  const child = spawn(SCRIPT, ["-qec", command, "/dev/null"], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", TERM: "xterm" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  let seen = 0;
  const waiters = new Set<() => void>();
  const onOutput = (chunk: Buffer): void => {
    screen += chunk.toString("utf8");
    for (const check of waiters) check();
  };
  child.stdout.on("data", onOutput);
  child.stderr.on("data", onOutput);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    get screen() {
      return screen;
    },
    exited,
    /** Ends the session (closing the terminal hangs up the CLI and its server) unless it ended. */
    stop(): void {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
    /** Waits until `text` shows after what was already waited for, then types `keys`. */
    answer(text: string, keys: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const limit = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`"${text}" never showed; the terminal shows:\n${screen}`));
        }, WAIT_LIMIT_MS);
        const check = (): void => {
          const at = screen.indexOf(text, seen);
          if (at === -1) return;
          seen = at + text.length;
          waiters.delete(check);
          clearTimeout(limit);
          child.stdin.write(keys);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

describe.skipIf(!existsSync(SCRIPT))("CLI elicitation on a terminal", () => {
  let dir: string;
  let configPath: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "cli-tty-"));
    configPath = join(dir, "mcp.json");
    await writeFile(configPath, JSON.stringify({ mcpServers: { eliciting: elicitingStdioServer() } }));
  });

  let session: ReturnType<typeof cliOnTerminal> | undefined;
  afterAll(async () => {
    session?.stop();
    await session?.exited;
    await rm(dir, { recursive: true, force: true });
    await expectNoLeakedProcesses();
  });

  it("asks the user field by field and sends the typed answer, checked, to the server", async () => {
    const cli = cliOnTerminal(["call", "eliciting/ask", "--yes", "--config", configPath], dir);
    session = cli;
    await cli.answer("Who are you?", "");
    await cli.answer("Answer?", "\r");
    await cli.answer("Name", "Ada\r");
    await cli.answer("Age", "36\r");
    expect(await cli.exited, cli.screen).toBe(0);
    // The tool echoes what reached the server: the age arrived as a number, so it was read and checked as one.
    expect(cli.screen).toContain('{"action":"accept","content":{"name":"Ada","age":36}}');
  }, 180_000);
});
