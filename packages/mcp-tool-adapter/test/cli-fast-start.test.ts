import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { createTempDirectory, expectNoLeakedProcesses, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { callCommandOptions, type CallFlags } from "../src/cli/command-flags.js";
import { CALL_FLAGS, scanCallArgv } from "../src/cli/fast-call-argv.js";
import { prestartCallServer } from "../src/cli/fast-start.js";
import { createCliContext } from "../src/cli/io.js";
import { buildProgram, reportError } from "../src/cli/program.js";
import { FIXTURE_BOUND_MS, runUntilExit } from "./run-fixture.js";

// The bin's fast path (issue 37): `call` of a stdio server spawns it before commander, the
// adapter and the SDK load; whatever it does not understand, it leaves to the normal path
// without spawning anything.

const SERVER = fileURLToPath(new URL("./fixtures/lifecycle-log-server.mjs", import.meta.url));
const MAIN = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

let directory: TempDirectory;
let log: string;
let configFile: string;

const plainEntry = () => ({ command: process.execPath, args: [SERVER], env: { LIFECYCLE_LOG: log } });

async function writeConfig(servers: Record<string, unknown>, name = "mcp.json"): Promise<string> {
  const file = join(directory.path, name);
  await writeFile(file, JSON.stringify({ mcpServers: servers }));
  return file;
}

const events = async (): Promise<{ event: string; pid: number }[]> =>
  (await readFile(log, "utf8").catch(() => ""))
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { event: string; pid: number });

beforeEach(async () => {
  directory = await createTempDirectory("cli-fast-start-");
  log = join(directory.path, "lifecycle.log");
  configFile = await writeConfig({ probe: plainEntry() });
});
afterEach(async () => {
  await directory.remove();
  await expectNoLeakedProcesses();
});

describe("the fast path's command-line scan", () => {
  it("reads the target and every flag of a plain call, in every spelling, as commander's action gets them", () => {
    expect(scanCallArgv(["call", "memory/read_graph"])).toEqual({
      target: "memory/read_graph",
      server: "memory",
      flags: { cache: true },
    });
    expect(scanCallArgv(["call", "-c", "a.json", "s/t", "--yes", "--json", "-a", "{}"])).toEqual({
      target: "s/t",
      server: "s",
      flags: { config: "a.json", yes: true, json: true, args: "{}", cache: true },
    });
    expect(
      scanCallArgv(["call", "s/t", "-f", "args.json", "-t", "1e3", "--connect-timeout=7", "--log-level", "debug"]),
    ).toEqual({
      target: "s/t",
      server: "s",
      flags: { argsFile: "args.json", timeout: 1000, connectTimeout: 7, logLevel: "debug", cache: true },
    });
    expect(scanCallArgv(["call", "s/t", "--config=b.json", "--timeout=5", "--no-cache", "--lock", "l.json"])).toEqual({
      target: "s/t",
      server: "s",
      flags: { config: "b.json", timeout: 5, cache: false, lock: "l.json" },
    });
  });

  it.each([
    [["call", "memory/read_graph"]],
    [["call", "-c", "a.json", "s/t", "--yes", "--json", "-a", "{}"]],
    [["call", "s/t", "-f", "args.json", "-t", "1e3", "--connect-timeout=7", "--log-level", "debug"]],
    [["call", "s/t", "--config=b.json", "--timeout=5", "--no-cache", "--lock", "l.json", "-y"]],
    [["call", "--args=", "s/t", "--config=", "--log-level=error", "--json"]],
  ])("gives `call` the same options as commander for %j", async (argv) => {
    const program = buildProgram(
      createCliContext({ stdout: { write: () => true }, stderr: { write: () => true } }),
      () => {},
    );
    let fromCommander: unknown;
    program.commands
      .find((command) => command.name() === "call")
      ?.action((target: string, flags: CallFlags) => {
        fromCommander = callCommandOptions(target, flags);
      });
    await program.parseAsync(argv, { from: "user" });
    const scanned = scanCallArgv(argv);
    expect(scanned).toBeDefined();
    expect(fromCommander).toBeDefined();
    expect(callCommandOptions(scanned!.target, scanned!.flags)).toEqual(fromCommander);
  });

  it.each([
    [["tools"]],
    [["call"]],
    [["call", "s/t", "--help"]],
    [["call", "s/t", "-h"]],
    [["call", "s/t", "--unknown"]],
    [["call", "s/t", "-yc", "a.json"]],
    [["call", "s/t", "--config"]],
    [["call", "s/t", "--config", "--json"]],
    [["call", "s/t", "--config", "a", "--config", "b"]],
    [["call", "s/t", "--json=1"]],
    [["call", "s/t", "extra"]],
    [["call", "s/t", "--", "x"]],
    [["call", "nosep"]],
    [["call", "/tool"]],
    [["call", "server/"]],
    // Values commander rejects: its argParser, choices and conflicts.
    [["call", "s/t", "--timeout", "abc"]],
    [["call", "s/t", "-t", "0"]],
    [["call", "s/t", "--timeout=1.5"]],
    [["call", "s/t", "--connect-timeout", "abc"]],
    [["call", "s/t", "--connect-timeout=-1"]],
    [["call", "s/t", "--log-level", "nonsense"]],
    [["call", "s/t", "--log-level=INFO"]],
    [["call", "s/t", "-a", "{}", "-f", "args.json"]],
  ])("leaves %j to the normal path", (argv) => {
    expect(scanCallArgv(argv)).toBeUndefined();
  });

  it.each(Object.entries(CALL_FLAGS).filter(([, flag]) => flag.takesValue))(
    "leaves %s without a value to the normal path",
    (spelling) => {
      expect(scanCallArgv(["call", "s/t", spelling])).toBeUndefined();
      expect(scanCallArgv(["call", "s/t", spelling, "--yes"])).toBeUndefined();
    },
  );

  it("knows exactly the flags commander gives `call`", () => {
    const program = buildProgram(
      createCliContext({ stdout: { write: () => true }, stderr: { write: () => true } }),
      () => {},
    );
    const call = program.commands.find((command) => command.name() === "call");
    const fromCommander = Object.fromEntries(
      (call?.options ?? []).flatMap((option) => {
        const takesValue = option.required || option.optional;
        const long = option.long as string;
        const spellings = option.short === undefined ? [long] : [option.short, long];
        return spellings.map((spelling) => [spelling, { long, takesValue }]);
      }),
    );
    expect(CALL_FLAGS).toEqual(fromCommander);
  });
});

describe("the fast path's spawn", () => {
  const where = () => ({ cwd: directory.path, env: { ...process.env } });

  it(
    "runs the bin's call on the one process it spawned before the command line was parsed",
    async () => {
      const run = await runUntilExit([
        MAIN,
        "call",
        "probe/echo",
        "--config",
        configFile,
        "-a",
        '{"message":"hi"}',
        "--no-cache",
      ]);
      expect(run.exit, run.output).toEqual({ code: 0, signal: null });
      expect(run.output).toContain("hi");
      const logged = await events();
      expect(logged.map(({ event }) => event)).toEqual(["start", "exit"]);
      expect(new Set(logged.map(({ pid }) => pid)).size).toBe(1);
    },
    2 * FIXTURE_BOUND_MS,
  );

  it(
    "reads a JSONC config (comments) with the JSONC parser and spawns its server once",
    async () => {
      const jsonc = join(directory.path, "mcp.jsonc");
      await writeFile(jsonc, `// a comment\n{ "servers": { "probe": ${JSON.stringify(plainEntry())}, } }`);
      const prestarted = await prestartCallServer(["call", "probe/echo", "-c", jsonc], where());
      expect(prestarted).toBeDefined();
      await prestarted?.release();
      expect((await events()).map(({ event }) => event)).toEqual(["start", "exit"]);
    },
    FIXTURE_BOUND_MS,
  );

  it.each([
    ["--help", ["--help"], {}],
    ["an unknown flag", ["--verbose"], {}],
    ["an unknown server", [], { other: {} }],
    ["an entry with a field beyond the stdio transport's", [], { probe: { connectTimeoutMs: 0 } }],
    ["a disabled entry", [], { probe: { disabled: true } }],
    [
      "an HTTP entry",
      [],
      { probe: { command: undefined, args: undefined, env: undefined, url: "http://127.0.0.1:1/mcp" } },
    ],
    ["an unset variable", [], { probe: { args: [SERVER, "${C37_SURELY_UNSET_VARIABLE}"] } }],
    ["args of the wrong type", [], { probe: { args: [SERVER, 7] } }],
    ["an empty command", [], { probe: { command: "" } }],
    ["a type other than stdio", [], { probe: { type: "sse" } }],
  ])("spawns nothing for %s", async (_case, extraArgv, change) => {
    const servers =
      "other" in change
        ? { other: plainEntry() }
        : { probe: { ...plainEntry(), ...(change as { probe?: object }).probe } };
    const file = await writeConfig(servers);
    const prestarted = await prestartCallServer(["call", "probe/echo", "-c", file, ...extraArgv], where());
    expect(prestarted).toBeUndefined();
    expect(await events()).toEqual([]);
  });

  it("spawns nothing for a YAML config, a missing file or a file that is not JSON", async () => {
    const yaml = join(directory.path, "mcp.yaml");
    await writeFile(yaml, `mcpServers:\n  probe:\n    command: ${process.execPath}\n    args: [${SERVER}]\n`);
    const broken = join(directory.path, "broken.json");
    await writeFile(broken, "{ not json");
    for (const file of [yaml, broken, join(directory.path, "missing.json")])
      expect(await prestartCallServer(["call", "probe/echo", "-c", file], where())).toBeUndefined();
    expect(await events()).toEqual([]);
  });

  it(
    "hands the process only to the same entry, and stops it when no one takes it",
    async () => {
      const prestarted = await prestartCallServer(["call", "probe/echo", "-c", configFile], where());
      expect(prestarted).toBeDefined();
      const entry = { transport: "stdio" as const, ...plainEntry() };
      expect(prestarted?.take("other", entry)).toBeUndefined();
      expect(prestarted?.take("probe", { ...entry, args: [SERVER, "--changed"] })).toBeUndefined();
      expect(prestarted?.take("probe", entry)).toBeDefined();
      await prestarted?.release();
      const logged = await events();
      expect(logged.map(({ event }) => event)).toEqual(["start", "exit"]);
    },
    FIXTURE_BOUND_MS,
  );

  it(
    "reports a bad call as before, through the normal path, having spawned nothing",
    async () => {
      const run = await runUntilExit([MAIN, "call", "probe/echo", "--config", configFile, "--bogus"]);
      expect(run.exit).toEqual({ code: 2, signal: null });
      expect(run.output).toContain("unknown option '--bogus'");
      expect(await events()).toEqual([]);
    },
    2 * FIXTURE_BOUND_MS,
  );
});

describe("a bad flag value through the bin", () => {
  const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

  /** The normal path alone: commander's program in-process (no fast path, no scanned route), as the bin would print it. */
  async function normalPath(argv: readonly string[]): Promise<{ code: number; output: string }> {
    let output = "";
    const write = (chunk: string): boolean => ((output += chunk), true);
    const env = { ...process.env, NO_COLOR: "1" };
    const context = createCliContext({ stdout: { write }, stderr: { write }, env, cwd: PACKAGE_DIR, isTTY: false });
    let code = 0;
    const program = buildProgram(context, (exitCode) => (code = exitCode));
    try {
      await program.parseAsync([...argv], { from: "user" });
    } catch (error) {
      code = reportError(context, error);
    }
    return { code, output };
  }

  // One bad value for each flag of `call` that takes one (the list is CALL_FLAGS, held to commander's above).
  const cases: [flag: string, bad: () => string[] | Promise<string[]>, spawns: boolean][] = [
    ["--config", () => ["--config", join(directory.path, "missing.json")], false],
    ["--args", () => ["--config", configFile, "--args", "not json"], false],
    ["--args-file", () => ["--config", configFile, "--args-file", join(directory.path, "missing.json")], false],
    ["--timeout", () => ["--config", configFile, "--timeout", "abc"], false],
    ["--connect-timeout", () => ["--config", configFile, "--connect-timeout", "0"], false],
    ["--log-level", () => ["--config", configFile, "--log-level", "nonsense"], false],
    [
      "--lock",
      async () => {
        const lock = join(directory.path, "broken.lock.json");
        await writeFile(lock, "{ not json");
        return ["--config", configFile, "--lock", lock];
      },
      // The fast path cannot tell a bad lock file without the lock's own rules: it spawns, and the
      // normal path stops the process when it meets the lock file's error.
      true,
    ],
  ];

  it("has a case for each value-taking flag", () => {
    const valueFlags = new Set(Object.values(CALL_FLAGS).flatMap((flag) => (flag.takesValue ? [flag.long] : [])));
    expect(new Set(cases.map(([flag]) => flag))).toEqual(valueFlags);
  });

  it.each(cases)(
    "ends a bad %s as the normal path does, with no server left running",
    async (_flag, bad, spawns) => {
      const argv = ["call", "probe/echo", "--yes", ...(await bad())];
      const run = await runUntilExit([MAIN, ...argv]);
      const logged = await events();
      expect(logged.map(({ event }) => event)).toEqual(spawns ? ["start", "exit"] : []);
      await writeFile(log, "");
      const normal = await normalPath(argv);
      expect(normal.code).toBe(2);
      expect(run.exit).toEqual({ code: normal.code, signal: null });
      expect(stripVTControlCharacters(run.output)).toBe(normal.output);
    },
    3 * FIXTURE_BOUND_MS,
  );
});
