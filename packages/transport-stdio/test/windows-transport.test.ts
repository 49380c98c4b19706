import { spawn, type SpawnOptions } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { everythingStdioServer } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { createStdioTransport, type StdioPlatform, type StdioTransport } from "../src/index.js";
import { nodePlatform } from "../src/platform.js";

interface Spawned {
  command: string;
  args: readonly string[];
  options: SpawnOptions;
}

/**
 * Windows as the transport sees it, on this Linux machine: a file system holding a Node install
 * and an npm shim, the host's `Path`, and a spawn that records what the transport asked Windows to
 * start and starts the real equivalent here (cmd.exe running the shim: the real server; node.exe:
 * this node; taskkill /T /F /PID: SIGKILL to that pid).
 */
function windowsOnLinux(realServer: { command: string; args: string[] }): {
  platform: StdioPlatform;
  spawned: Spawned[];
} {
  const files = new Set(["c:\\nodejs\\node.exe", "c:\\nodejs\\mcp-everything.cmd"]);
  const spawned: Spawned[] = [];
  const platform: StdioPlatform = {
    name: "win32",
    arch: "x64",
    env: {
      Path: "C:\\nodejs",
      PATHEXT: ".com;.exe;.bat;.cmd",
      SystemRoot: "C:\\Windows",
      API_SECRET: "not for servers",
      ComSpec: "C:\\Windows\\cmd.exe",
    },
    stat: (path) => (files.has(path.toLowerCase()) ? { isFile: true, executable: true } : undefined),
    readHead: () => "@ECHO off\r\n",
    isRunning: (pid) => nodePlatform.isRunning(pid),
    spawn(command, args, options) {
      spawned.push({ command, args, options });
      const { windowsVerbatimArguments: _, ...rest } = options;
      if (command === "taskkill") return spawn(process.execPath, ["-e", `process.kill(${args[3]}, "SIGKILL")`], rest);
      if (command === "C:\\Windows\\cmd.exe") return spawn(realServer.command, realServer.args, rest);
      return spawn(process.execPath, [...args], rest);
    },
  };
  return { platform, spawned };
}

const open: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((transport) => transport.close()));
});

describe("stdio transport with the Windows platform injected", () => {
  it("starts a .cmd shim through cmd.exe with escaped arguments and the Windows environment, and talks to the real server", async () => {
    const { platform, spawned } = windowsOnLinux(everythingStdioServer());
    const transport = createStdioTransport(
      { command: "mcp-everything", args: ["stdio", "a&calc", "%PATH%"], env: { PATH: "C:\\nodejs;D:\\bin" } },
      { platform, killGraceMs: 2000 },
    );
    open.push(transport);
    const client = new Client({ name: "windows-test", version: "1.0.0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("echo");
    await client.close();

    const launch = spawned[0];
    expect(launch?.command).toBe("C:\\Windows\\cmd.exe");
    expect(launch?.args).toEqual([
      "/d",
      "/s",
      "/c",
      '"C:\\nodejs\\mcp-everything.cmd ^"stdio^" ^"a^&calc^" ^"^%PATH^%^""',
    ]);
    expect(launch?.options).toMatchObject({
      shell: false,
      windowsVerbatimArguments: true,
      windowsHide: true,
      detached: false,
    });
    // The config's PATH replaced the host's Path (one spelling, not two); the host's secret stayed home.
    expect(launch?.options.env).toEqual({ PATH: "C:\\nodejs;D:\\bin", SystemRoot: "C:\\Windows" });
  });

  it("stops a server that ignores the end of stdin with taskkill /T /F on its pid", async () => {
    const { platform, spawned } = windowsOnLinux({ command: process.execPath, args: [] });
    const transport = createStdioTransport(
      {
        command: "node",
        args: ["-e", "process.stdin.resume(); process.stdin.on('end', () => {}); setInterval(() => {}, 1000)"],
      },
      { platform, killGraceMs: 1000 },
    );
    open.push(transport);
    await transport.start();
    expect(spawned[0]).toMatchObject({ command: "C:\\nodejs\\node.exe", options: { windowsVerbatimArguments: false } });
    await transport.close();
    // Once, or again after the grace if the first taskkill had not finished yet on a loaded machine.
    const calls = spawned.slice(1).map(({ command, args }) => [command, ...args]);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call).toEqual(["taskkill", "/T", "/F", "/PID", String(transport.pid)]);
    expect(transport.exit).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("reports a command that is on no PATH directory as SPAWN_FAILED (ENOENT), as on any platform", async () => {
    const { platform, spawned } = windowsOnLinux({ command: process.execPath, args: [] });
    const transport = createStdioTransport({ command: "uvx", args: ["mcp-server-fetch"] }, { platform });
    await expect(transport.start()).rejects.toMatchObject({
      code: "SPAWN_FAILED",
      message: expect.stringContaining("ENOENT") as unknown,
    });
    expect(spawned).toEqual([]);
  });
});
