import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { MCPToolAdapter as BaseMCPToolAdapter, type MCPServerConfig } from "@mcp-tool-adapter/adapter";
import {
  createInMemoryTestServer,
  createRefusingTransport,
  expectNoLeakedProcesses,
  type InMemoryTestServer,
} from "@mcp-tool-adapter/test-servers";
import { runBin } from "./fixtures/run-bin.js";
import { runCliCaptured, type CapturedRun } from "./fixtures/run-cli-captured.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliIO, type ServerSetAdapterFactory } from "../src/index.js";
import { runDemo } from "../src/cli/demo.js";

const packageVersion = (await import("../package.json", { with: { type: "json" } })).default.version;

// eslint-disable-next-line no-control-regex -- looking for ANSI colour codes is the point
const ANSI = /\u001b\[/;

let memoryDir: string;
let baseEnv: Record<string, string | undefined>;

beforeAll(async () => {
  memoryDir = await mkdtemp(join(tmpdir(), "mcp-cli-test-"));
  // Never the shared default graph file: each run of the suite starts from an empty graph.
  baseEnv = {
    ...process.env,
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    MCP_MEMORY_FILE_PATH: join(memoryDir, "memory.jsonl"),
  };
});

afterAll(async () => {
  await rm(memoryDir, { recursive: true, force: true });
});

function cli(argv: string[], io: Partial<CliIO> = {}): Promise<CapturedRun> {
  return runCliCaptured(argv, { env: baseEnv, cwd: memoryDir, ...io });
}

describe("CLI against the shipped default config (real server-everything and server-memory)", () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("check: reports both servers connected with handshake time and tool count", async () => {
    const result = await cli(["check", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      servers: { name: string; status: string; protocolEra: string; handshakeMs: number; toolCount: number }[];
    };
    expect(report.ok).toBe(true);
    expect(report.servers.map((s) => [s.name, s.status, s.protocolEra])).toEqual([
      ["everything", "connected", "2025"],
      ["memory", "connected", "2025"],
    ]);
    for (const server of report.servers) {
      expect(server.toolCount).toBeGreaterThan(0);
      expect(server.handshakeMs).toBeGreaterThanOrEqual(0);
    }
    expect(result.stderr).toBe(""); // --json: no progress lines
  });

  it("tools: one row per tool with capabilities and the source that decided them; unsafe tools excluded by the default config", async () => {
    const result = await cli(["tools", "--json"]);
    expect(result.code).toBe(0);
    const { tools } = JSON.parse(result.stdout) as {
      tools: { name: string; readOnly: boolean; writes: boolean; decidedBy?: { readOnly: string; writes: string } }[];
    };
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("memory/read_graph")).toMatchObject({
      readOnly: true,
      writes: false,
      decidedBy: { readOnly: "annotation" },
    });
    expect(byName.get("memory/create_entities")).toMatchObject({ readOnly: false, writes: true });
    expect(byName.has("everything/echo")).toBe(true);
    expect(byName.has("everything/get-env")).toBe(false);
    expect(byName.has("everything/gzip-file-as-resource")).toBe(false);
  });

  it("tools --server: a table of one server's tools, with plain progress lines on stderr when piped", async () => {
    const result = await cli(["tools", "--server", "memory"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^TOOL\s+ACCESS\s+DECIDED BY\s+DESCRIPTION$/);
    expect(result.stdout).toMatch(/memory\/read_graph\s+read-only\s+annotation\s+Read the entire knowledge graph/);
    expect(result.stdout).toMatch(/memory\/delete_entities\s+writes \(destructive\)/);
    expect(result.stdout).not.toContain("everything/");
    expect(result.stderr).toMatch(/✔ memory connected over stdio in \d+(\.\d+)? m?s, \d+ tools/);
    expect(result.stdout + result.stderr).not.toMatch(ANSI);
  });

  it("call: a write tool, then a read tool that sees what it wrote", async () => {
    const entities = {
      entities: [{ name: "cli-test", entityType: "test", observations: ["written by the CLI test"] }],
    };
    const write = await cli(["call", "memory/create_entities", "--yes", "--args", JSON.stringify(entities)]);
    expect(write.code).toBe(0);
    expect(write.stderr).toMatch(/✔ memory\/create_entities succeeded in \d+ ms/);
    const read = await cli(["call", "memory/read_graph", "--json"]);
    expect(read.code).toBe(0);
    const output = JSON.parse(read.stdout) as {
      success: boolean;
      durationMs: number;
      content: { type: string; text: string }[];
    };
    expect(output.success).toBe(true);
    expect(output.durationMs).toBeGreaterThanOrEqual(0);
    expect(output.content[0]?.text).toContain("written by the CLI test");
  });

  it("call: prints text items as text and other items as JSON", async () => {
    const sum = await cli(["call", "everything/get-sum", "--args", '{"a":2,"b":3}']);
    expect(sum.code).toBe(0);
    expect(sum.stdout.trim()).toBe("The sum of 2 and 3 is 5.");
    const image = await cli(["call", "everything/get-tiny-image"]);
    expect(image.code).toBe(0);
    expect(image.stdout).toContain('"type": "image"');
    expect(image.stdout).toContain('"mimeType": "image/png"');
  });

  it("call: invalid arguments fail validation before the server, exit 1 with the error kind", async () => {
    const human = await cli(["call", "everything/get-sum", "--args", '{"a":"two"}']);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/✖ everything\/get-sum failed \(validation\)/);
    const machine = await cli(["call", "everything/get-sum", "--args", '{"a":"two"}', "--json"]);
    expect(machine.code).toBe(1);
    expect(JSON.parse(machine.stdout)).toMatchObject({ success: false, errorKind: "validation" });
  });

  it("call --timeout: a call past its deadline fails as a timeout", async () => {
    const result = await cli([
      "call",
      "everything/trigger-long-running-operation",
      "--args",
      '{"duration":30,"steps":3}',
      "--timeout",
      "300",
      "--json",
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: false, errorKind: "timeout" });
  });

  it("call: an unknown tool or one excluded by the config is not_found", async () => {
    const unknown = await cli(["call", "memory/no_such_tool", "--json"]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ errorKind: "not_found" });
    const excluded = await cli(["call", "everything/get-env"]);
    expect(excluded.code).toBe(1);
    expect(excluded.stderr).toContain("excluded by the config's tools filter");
  });

  it("call --args-file reads the arguments from a file relative to cwd", async () => {
    await writeFile(join(memoryDir, "args.json"), '{ "message": "from a file" }');
    const result = await cli(["call", "everything/echo", "--args-file", "args.json"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("from a file");
  });
});

describe("CLI usage and config errors (exit 2)", () => {
  it.each([
    [["call", "no-slash"], /<server>\/<tool>/],
    [["call", "memory/read_graph", "--args", "{not json"], /--args is not valid JSON/],
    [["call", "memory/read_graph", "--args", "[1,2]"], /must be a JSON object/],
    [["call", "memory/read_graph", "--args", "{}", "--args-file", "x.json"], /cannot be used with/],
    [["call", "memory/read_graph", "--timeout", "soon"], /positive whole number/],
    [["serve", "--connect-timeout", "soon"], /--connect-timeout.*positive whole number of milliseconds, got "soon"/],
    [["serve", "--call-timeout", "0"], /--call-timeout.*positive whole number of milliseconds, got "0"/],
    [["serve", "--input-timeout", "1.5"], /--input-timeout.*positive whole number of milliseconds/],
    [["serve", "--upstream-per-client", "0"], /--upstream-per-client.*positive whole number, got "0"/],
    [["serve", "--port", "http"], /--port.*whole number from 0 to 65535, got "http"/],
    [["serve", "--max-calls-awaiting-input", "many"], /--max-calls-awaiting-input.*whole number from 0/],
    [["call", "memory/read_graph", "--args-file", "missing.json"], /Cannot read --args-file/],
    [["frobnicate"], /unknown command/],
    [["tools", "--config", "does-not-exist.json"], /Config file not found: .*does-not-exist\.json/],
    [["tools", "--server", "nope"], /has no server "nope"/],
  ])("%j", async (argv, message) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("names the variable, file, server and field of an unset ${VAR}", async () => {
    const file = join(memoryDir, "needs-token.yaml");
    await writeFile(
      file,
      "mcpServers:\n  github:\n    url: https://api.example.invalid/mcp\n    headers:\n      Authorization: Bearer ${GITHUB_TOKEN_FOR_TEST}\n",
    );
    const result = await cli(["check", "--config", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"GITHUB_TOKEN_FOR_TEST"');
    expect(result.stderr).toContain(file);
    expect(result.stderr).toContain('server "github" field "headers.Authorization"');
  });

  it("--help on every command, --version from package.json", async () => {
    for (const argv of [["--help"], ["tools", "--help"], ["call", "--help"], ["check", "--help"]]) {
      const result = await cli(argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: mcp-tool-adapter/);
    }
    expect((await cli(["call", "--help"])).stdout).toContain("--args-file <file>");
    const version = await cli(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
  });
});

describe("CLI with in-process servers", () => {
  const longDescription = `Looks up the weather ${"and much more ".repeat(20)}`;
  let weather: InMemoryTestServer;
  let configFile: string;
  const factory: ServerSetAdapterFactory = (config: MCPServerConfig) =>
    new BaseMCPToolAdapter(config, {
      transport: config.name === "weather" ? () => weather.connect() : () => createRefusingTransport(),
    });

  beforeAll(async () => {
    weather = createInMemoryTestServer({
      tools: [
        { name: "get_weather", description: longDescription },
        { name: "frobnicate", description: "No keyword says what it does" },
      ],
    });
    configFile = join(memoryDir, "in-process.json");
    await writeFile(
      configFile,
      JSON.stringify({ mcpServers: { weather: { command: "in-process" }, down: { command: "in-process" } } }),
    );
  });

  it("check: exit 1 when a server fails, with its classified error; the others are still reported", async () => {
    const result = await cli(["check", "--config", configFile, "--json"], { adapterFactory: factory });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      ok: boolean;
      servers: { name: string; status: string; toolCount: number; error?: { kind: string } }[];
    };
    expect(report.ok).toBe(false);
    expect(report.servers).toEqual([
      expect.objectContaining({ name: "weather", status: "connected", toolCount: 2 }),
      expect.objectContaining({
        name: "down",
        status: "failed",
        toolCount: 0,
        error: expect.objectContaining({ kind: "connection_failed" }) as unknown,
      }),
    ]);
    const human = await cli(["check", "--config", configFile], { adapterFactory: factory });
    // ERA, HANDSHAKE and TOOLS are "-" for a server that did not connect.
    expect(human.stdout).toMatch(/down\s+failed\s+stdio\s+-\s+-\s+-\s+connection_failed: /);
    expect(human.stdout).toContain("1/2 servers connected, 2 tools");
  });

  it("tools: lists the working server's tools and exits 1 for the failed one", async () => {
    const result = await cli(["tools", "--config", configFile], { adapterFactory: factory });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/weather\/get_weather\s+read-only\s+name/);
    expect(result.stdout).toMatch(/weather\/frobnicate\s+unknown\s+default/);
    expect(result.stderr).toMatch(/✖ down failed \(connection_failed\)/);
  });

  it("on a TTY: colour, and descriptions cut to the terminal width; NO_COLOR turns colour off", async () => {
    const tty = await cli(["tools", "--config", configFile, "--server", "weather"], {
      adapterFactory: factory,
      isTTY: true,
      columns: 100,
    });
    expect(tty.stdout).toMatch(ANSI);
    const row = tty.stdout.split("\n").find((line) => line.includes("get_weather")) ?? "";
    expect(row.replace(/\u001b\[[0-9;]*m/g, "").length).toBeLessThanOrEqual(100); // eslint-disable-line no-control-regex
    expect(row).toContain("…");
    const noColor = await cli(["tools", "--config", configFile, "--server", "weather"], {
      adapterFactory: factory,
      isTTY: true,
      columns: 100,
      env: { ...baseEnv, NO_COLOR: "1" },
    });
    expect(noColor.stdout).not.toMatch(ANSI);
    expect(noColor.stdout).toContain("…");
    const piped = await cli(["tools", "--config", configFile, "--server", "weather"], { adapterFactory: factory });
    expect(piped.stdout).toContain(longDescription.trim());
  });

  it("shows a spinner on a terminal's stderr while servers connect", async () => {
    let written = "";
    class FakeTerminal extends Writable {
      readonly isTTY = true;
      readonly columns = 120;
      override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
        written += chunk.toString();
        callback();
      }
      cursorTo(_x: number, callback?: () => void): boolean {
        callback?.();
        return true;
      }
      moveCursor(_dx: number, _dy: number, callback?: () => void): boolean {
        callback?.();
        return true;
      }
      clearLine(_direction: number, callback?: () => void): boolean {
        callback?.();
        return true;
      }
    }
    const terminal = new FakeTerminal();
    let stdout = "";
    const code = await runCli(["check", "--config", configFile], {
      stdout: { write: (chunk: string) => (stdout += chunk), isTTY: true, columns: 120 },
      stderr: terminal,
      env: baseEnv,
      cwd: memoryDir,
      isTTY: true,
      adapterFactory: factory,
    });
    expect(code).toBe(1);
    const plain = written.replace(/\u001b\[[0-9;?]*[a-zA-Z]/g, ""); // eslint-disable-line no-control-regex
    expect(plain).toMatch(/⠋ Connecting to 2 MCP servers \(0\/2 done\): weather, down/);
    expect(plain).toContain("✔ weather connected");
    expect(stdout).toContain("SERVER");
  });
});

describe("the mcp-tool-adapter bin (spawned)", () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  const runBinHere = (args: string[]): Promise<CapturedRun> =>
    runBin(args, { cwd: memoryDir, env: { ...baseEnv, NO_COLOR: "" } });

  it("prints its version and exits 0", async () => {
    const result = await runBinHere(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
  });

  it("checks the default servers when piped: plain lines, no colour, exit 0, no processes left", async () => {
    const result = await runBinHere(["check"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/everything\s+ok\s+stdio/);
    expect(result.stdout).toMatch(/memory\s+ok\s+stdio/);
    expect(result.stderr).toMatch(/✔ memory connected/);
    expect(result.stdout + result.stderr).not.toMatch(ANSI);
  });

  it("passes the CLI's exit code through (2 for a usage error)", async () => {
    const result = await runBinHere(["call", "no-slash"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("<server>/<tool>");
  });
});

// A hang bound, not a time limit: the demo starts two servers and runs a dozen steps, which took
// over the file's 60 s once on a CI machine at load 40.
describe("the demo", { timeout: 180_000 }, () => {
  afterEach(async () => {
    await expectNoLeakedProcesses();
  });

  it("runs every step against the default config and exits 0", async () => {
    let output = "";
    const sink = { write: (chunk: string) => (output += chunk) };
    const code = await runDemo({ stdout: sink, stderr: sink, env: baseEnv, isTTY: false });
    expect(code).toBe(0);
    expect(output).toContain("memory/read_graph");
    expect(output).toContain("The sum of 2 and 3 is 5.");
    expect(output).toContain("connects MCP servers to agent runtimes");
    expect(output).toContain("Demo finished: every step behaved as expected.");
  });
});
