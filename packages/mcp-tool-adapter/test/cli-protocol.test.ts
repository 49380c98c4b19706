import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { everythingStdioServer, expectNoLeakedProcesses } from "@mcp-tool-adapter/test-servers";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MCP_LOG_LEVELS } from "@mcp-tool-adapter/adapter";
import type { CliIO } from "../src/index.js";
import { CLI_LOG_LEVELS } from "../src/cli/program.js";

let dir: string;
let configPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-cli-protocol-"));
  configPath = join(dir, "mcp.json");
  const everything = everythingStdioServer();
  const config = {
    mcpServers: {
      everything: {
        command: everything.command,
        args: everything.args,
        tools: { include: ["trigger-elicitation-request", "toggle-simulated-logging", "echo"] },
      },
    },
  };
  await writeFile(configPath, JSON.stringify(config));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(async () => {
  await expectNoLeakedProcesses();
});

function cli(argv: string[], io: Partial<CliIO> = {}): Promise<CapturedRun> {
  return runCliCaptured([...argv, "--config", configPath], { cwd: dir, stdinIsTTY: false, ...io });
}

describe("CLI resources, prompts, logs and elicitation against server-everything", () => {
  it("keeps --log-level's choices equal to the adapter's log levels", () => {
    expect([...CLI_LOG_LEVELS]).toEqual([...MCP_LOG_LEVELS]);
  });

  it("resources: lists static documents and templates", async () => {
    const result = await cli(["resources"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("demo://resource/static/document/");
    expect(result.stdout).toContain("demo://resource/dynamic/text/{resourceId}");
    const json = await cli(["resources", "--json"]);
    const parsed = JSON.parse(json.stdout) as { servers: { server: string; templates: unknown[] }[] };
    expect(parsed.servers[0]).toMatchObject({ server: "everything" });
    expect(parsed.servers[0]!.templates).toHaveLength(2);
  });

  it("read: prints a resource's text, and fails with the kind for an unknown one", async () => {
    const result = await cli(["read", "everything", "demo://resource/dynamic/text/5"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Resource 5: This is a plaintext resource/);
    const missing = await cli(["read", "everything", "demo://resource/dynamic/text/0"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("Unknown resource");
  });

  it("prompts and prompt --arg: lists prompts and fills one in; a missing argument is a validation failure", async () => {
    const list = await cli(["prompts"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/everything\/args-prompt\s+city \[state\]/);
    const prompt = await cli(["prompt", "everything/args-prompt", "--arg", "city=Lyon", "--arg", "state=Rhône"]);
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain("user: What's weather in Lyon, Rhône?");
    const missing = await cli(["prompt", "everything/args-prompt", "--arg", "state=Rhône"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      'validation: validation failed: arguments for prompt "args-prompt": required argument "city" is missing',
    );
    const bad = await cli(["prompt", "everything/args-prompt", "--arg", "city"]);
    expect(bad.code).toBe(2);
  });

  it("--log-level prints the server's log messages tagged with its name", async () => {
    const result = await cli(["call", "everything/toggle-simulated-logging", "--yes", "--log-level", "debug"]);
    expect(result.code).toBe(0);
    // The server logs once at once when logging is switched on, at a random level.
    expect(result.stderr).toMatch(/\[everything\] \w+: \w+[- ]level/i);
    const wrong = await cli(["resources", "--log-level", "loud"]);
    expect(wrong.code).toBe(2);
  });

  it("declines a server's elicitation when stdin is not a terminal", async () => {
    const result = await cli(["call", "everything/trigger-elicitation-request", "--yes"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("declined because stdin is not a terminal");
    expect(result.stdout).toMatch(/declined/i);
  });
});
