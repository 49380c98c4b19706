import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTempDirectory, expectNoLeakedProcesses, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { buildServerEnvironment, createStdioTransport, StdioTransportError } from "../src/index.js";
import { runNodeScript } from "./helpers.js";

const tempDirectories: TempDirectory[] = [];
afterEach(async () => {
  await Promise.all(tempDirectories.splice(0).map((directory) => directory.remove()));
  await expectNoLeakedProcesses();
});

const PRINT_ARGV = "process.stderr.write(JSON.stringify(process.argv.slice(1)))";
const PRINT_ENV = "process.stderr.write(JSON.stringify(process.env))";

describe("spawning without a shell", () => {
  it("passes arguments with shell metacharacters literally", async () => {
    const tricky = [
      "a;touch /tmp/should-not-exist",
      "$(echo injected)",
      "`id`",
      'it\'s "quoted"',
      "with space",
      "*",
      "$HOME",
      "",
    ];
    const { transport } = await runNodeScript(PRINT_ARGV, { args: tricky });
    expect(JSON.parse(transport.stderrTail)).toEqual(tricky);
  });

  it("runs in the configured cwd", async () => {
    const directory = await createTempDirectory();
    tempDirectories.push(directory);
    const { transport } = await runNodeScript("process.stderr.write(process.cwd())", { cwd: directory.path });
    expect(transport.stderrTail).toBe(directory.path);
  });
});

describe("stderr", () => {
  it("goes to the logger line by line and to the error's tail", async () => {
    const logged: string[] = [];
    const logger = {
      debug: (message: string) => logged.push(message),
      warn: (message: string) => logged.push(message),
    };
    const { transport, errors } = await runNodeScript(
      "process.stderr.write('first line\\nsecond'); process.exitCode = 4",
      {},
      { logger },
    );
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/stderr\] first line$/),
        expect.stringMatching(/stderr\] second$/),
      ]),
    );
    expect(logged.some((message) => message.includes("exited with code 4"))).toBe(true);
    expect(errors).toMatchObject([{ code: "SERVER_EXITED", exitCode: 4, stderrTail: "first line\nsecond" }]);
    expect(transport.stderrTail).toBe("first line\nsecond");
  });
});

describe("the server's environment", () => {
  const SECRET = "MCP_STDIO_TEST_SECRET";

  async function serverEnvironment(config: Parameters<typeof runNodeScript>[1]): Promise<Record<string, string>> {
    process.env[SECRET] = "hunter2";
    try {
      const { transport } = await runNodeScript(PRINT_ENV, config);
      return JSON.parse(transport.stderrTail) as Record<string, string>;
    } finally {
      Reflect.deleteProperty(process.env, SECRET);
    }
  }

  it("does not pass the host's other variables by default, but keeps the safe ones and adds env", async () => {
    const environment = await serverEnvironment({ env: { GIVEN: "yes" } });
    expect(environment[SECRET]).toBeUndefined();
    expect(environment.GIVEN).toBe("yes");
    expect(environment.PATH).toBe(process.env.PATH);
  });

  it("passes named variables with inheritEnv: [names]", async () => {
    const environment = await serverEnvironment({ inheritEnv: [SECRET] });
    expect(environment[SECRET]).toBe("hunter2");
  });

  it("passes everything with inheritEnv: true, with env still winning", async () => {
    const environment = await serverEnvironment({ inheritEnv: true, env: { [SECRET]: "overridden" } });
    expect(environment[SECRET]).toBe("overridden");
  });

  it("builds the environment from the SDK's safe list, skipping exported shell functions", () => {
    const parent = { HOME: "/home/u", PATH: "/bin", SHELL: "() { evil; }", API_KEY: "k", OTHER: "o" };
    expect(buildServerEnvironment({}, parent)).toEqual({ HOME: "/home/u", PATH: "/bin" });
    expect(buildServerEnvironment({ inheritEnv: ["API_KEY", "MISSING"], env: { X: "1" } }, parent)).toEqual({
      HOME: "/home/u",
      PATH: "/bin",
      API_KEY: "k",
      X: "1",
    });
    expect(buildServerEnvironment({ inheritEnv: false }, parent)).toEqual({ HOME: "/home/u", PATH: "/bin" });
  });
});

describe("start failures", () => {
  async function startFailure(
    config: Parameters<typeof createStdioTransport>[0],
  ): Promise<{ error: StdioTransportError; closed: boolean }> {
    const transport = createStdioTransport(config);
    let closed = false;
    transport.onclose = () => (closed = true);
    const error = await transport.start().then(
      () => {
        throw new Error("start() should have failed");
      },
      (reason: unknown) => reason,
    );
    if (!StdioTransportError.isInstance(error)) throw error;
    return { error, closed };
  }

  it("reports a missing command as SPAWN_FAILED naming it and what to do", async () => {
    const { error, closed } = await startFailure({ command: "mcp-server-that-does-not-exist-anywhere" });
    expect(error.code).toBe("SPAWN_FAILED");
    expect(error.message).toContain('"mcp-server-that-does-not-exist-anywhere"');
    expect(error.message).toMatch(/not found.*PATH/);
    expect(closed).toBe(true);
  });

  it("reports a missing cwd as such, not as a missing command", async () => {
    const { error } = await startFailure({ command: process.execPath, cwd: "/nonexistent/mcp-tool-adapter-cwd" });
    expect(error.code).toBe("SPAWN_FAILED");
    expect(error.message).toContain('working directory "/nonexistent/mcp-tool-adapter-cwd" does not exist');
  });

  it("reports a file that is not executable", async () => {
    const directory = await createTempDirectory();
    tempDirectories.push(directory);
    const script = join(directory.path, "server.sh");
    await writeFile(script, "#!/bin/sh\necho hi\n");
    await chmod(script, 0o644);
    const { error } = await startFailure({ command: script });
    expect(error.code).toBe("SPAWN_FAILED");
    expect(error.message).toContain("EACCES");
  });

  it("rejects an invalid config up front, naming every bad field", () => {
    const bad = { command: "", args: ["ok", 3] } as unknown as Parameters<typeof createStdioTransport>[0];
    let error: unknown;
    try {
      createStdioTransport(bad);
    } catch (caught) {
      error = caught;
    }
    expect(StdioTransportError.isInstance(error) && error.code).toBe("CONFIG_INVALID");
    expect((error as Error).message).toMatch(/command.*args\.1/);
  });

  it("refuses a second start()", async () => {
    const transport = createStdioTransport({ command: process.execPath, args: ["-e", ""] });
    await transport.start();
    await expect(transport.start()).rejects.toMatchObject({ code: "ALREADY_STARTED" });
    await transport.close();
  });
});
