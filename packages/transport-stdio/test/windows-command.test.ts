import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { StdioPlatform } from "../src/platform.js";
import { escapeCmdArgument, findWindowsCommand, resolveWindowsLaunch } from "../src/windows-command.js";
import { buildServerEnvironment, INHERITED_ENV_VARS } from "../src/environment.js";
import { DEFAULT_INHERITED_ENV_VARS } from "@modelcontextprotocol/sdk/client/stdio.js";

/** A Windows machine's file system as a map from path to content (the head of the file). */
function windowsPlatform(files: Record<string, string>, env: NodeJS.ProcessEnv = {}): StdioPlatform {
  const byPath = new Map(Object.entries(files).map(([path, content]) => [path.toLowerCase(), content]));
  return {
    name: "win32",
    arch: "x64",
    env,
    stat: (path) => (byPath.has(path.toLowerCase()) ? { isFile: true, executable: true } : undefined),
    readHead: (path, bytes) => byPath.get(path.toLowerCase())?.slice(0, bytes),
    spawn: () => {
      throw new Error("this platform starts nothing");
    },
    isRunning: () => false,
  };
}

/**
 * What cmd.exe does to a `/d /s /c "<line>"` line with every metacharacter caret-escaped: /s drops
 * the outer quotes, then each `^x` becomes `x`. A metacharacter without its caret would be
 * interpreted (a command separator, a redirection, a variable), so the model refuses it.
 */
function cmdExeUnescape(line: string): string {
  let out = "";
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index] ?? "";
    if (char === "^") {
      out += line[index + 1] ?? "";
      index += 1;
    } else if (/[()\][%!"`<>&|;,*?]/.test(char)) {
      throw new Error(`cmd.exe would interpret ${JSON.stringify(char)} at ${index} in ${line}`);
    } else out += char;
  }
  return out;
}

/** The MS C runtime's argv split (CommandLineToArgvW rules): how the started program sees its arguments. */
function commandLineToArgv(line: string): string[] {
  const args: string[] = [];
  let current = "";
  let inQuotes = false;
  let started = false;
  for (let index = 0; index < line.length;) {
    const char = line[index] ?? "";
    if (char === "\\") {
      let count = 0;
      while (line[index] === "\\") {
        count += 1;
        index += 1;
      }
      if (line[index] === '"') {
        current += "\\".repeat(Math.floor(count / 2));
        if (count % 2 === 1) {
          current += '"';
          index += 1;
        }
      } else current += "\\".repeat(count);
      started = true;
    } else if (char === '"') {
      inQuotes = !inQuotes;
      started = true;
      index += 1;
    } else if ((char === " " || char === "\t") && !inQuotes) {
      if (started) args.push(current);
      current = "";
      started = false;
      index += 1;
    } else {
      current += char;
      started = true;
      index += 1;
    }
  }
  if (started) args.push(current);
  return args;
}

const HOSTILE = [
  "a&calc",
  '"x^"',
  "%PATH%",
  "!PATH!",
  "a|b>out.txt",
  "x) & (calc",
  "; calc",
  "`calc`",
  'a\\\\"b',
  "ends\\\\",
  "C:\\Program Files\\",
  "two words",
  "",
  '\\"',
  "^^^",
];

describe("cmd.exe argument escaping", () => {
  it.each(HOSTILE)("%j reaches the program unchanged and nothing in it is interpreted by cmd.exe", (argument) => {
    const once = escapeCmdArgument(argument, false);
    expect(commandLineToArgv(cmdExeUnescape(once))).toEqual([argument]);
    // An npm shim runs `node cli.js %*`: cmd.exe parses the arguments a second time.
    const twice = escapeCmdArgument(argument, true);
    expect(commandLineToArgv(cmdExeUnescape(cmdExeUnescape(twice)))).toEqual([argument]);
  });

  it("matches cross-spawn's escaping wherever cross-spawn is right (no run of backslashes before a quote or the end)", () => {
    const crossSpawnEscape = createRequire(import.meta.url)("cross-spawn/lib/util/escape.js") as {
      argument(argument: string, twice: boolean): string;
    };
    for (const argument of HOSTILE.filter((value) => !/\\\\+("|$)/.test(value))) {
      expect(escapeCmdArgument(argument, false)).toBe(crossSpawnEscape.argument(argument, false));
      expect(escapeCmdArgument(argument, true)).toBe(crossSpawnEscape.argument(argument, true));
    }
    // cross-spawn 7.0.6 doubles only one backslash of a run: the program would see a different argument.
    expect(commandLineToArgv(cmdExeUnescape(crossSpawnEscape.argument("ends\\\\", false)))).not.toEqual(["ends\\\\"]);
  });
});

describe("Windows command resolution", () => {
  const node = "C:\\Program Files\\nodejs\\node.exe";
  const npx = "C:\\Program Files\\nodejs\\npx.cmd";
  const files = {
    [node]: "MZ",
    [npx]: "@ECHO off\r\n",
    "C:\\Program Files\\nodejs\\npx": "#!/usr/bin/env bash\n",
    "C:\\proj\\node_modules\\.bin\\mcp-server.cmd": "@ECHO off\r\n",
    "C:\\proj\\npx.cmd": "@ECHO planted\r\n",
    "C:\\proj\\server.js": "#!/usr/bin/env node\nconsole.log(1)\n",
    "C:\\proj\\tool.py": "#!/usr/bin/python3 -u\n",
    "C:\\Python\\python3.exe": "MZ",
  };
  // The host spells PATH the way Windows does: "Path" (PATHEXT in lower case, so paths read as the files are named).
  const env = {
    PATHEXT: ".com;.exe;.bat;.cmd",
    Path: 'C:\\Program Files\\nodejs;"C:\\Python";C:\\proj\\node_modules\\.bin',
    ComSpec: "C:\\Windows\\system32\\cmd.exe",
  };
  const platform = windowsPlatform(files, env);
  const launch = (command: string, args: string[] = []) =>
    resolveWindowsLaunch({ command, args, env, cwd: "C:\\proj" }, platform);

  it("starts npx (a .cmd shim) through cmd.exe with the resolved path and escaped arguments, without a shell option", () => {
    expect(launch("npx", ["-y", "a&calc", "%PATH%"])).toEqual({
      command: "C:\\Windows\\system32\\cmd.exe",
      args: ["/d", "/s", "/c", '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"a^&calc^" ^"^%PATH^%^""'],
      windowsVerbatimArguments: true,
    });
  });

  it("escapes twice for an npm bin shim in node_modules\\.bin", () => {
    const { args } = launch("mcp-server", ["a&calc"]);
    expect(args[3]).toBe('"C:\\proj\\node_modules\\.bin\\mcp-server.cmd ^^^"a^^^&calc^^^""');
  });

  it("starts an .exe directly, with no cmd.exe and no verbatim arguments", () => {
    expect(launch("node", ["a&calc"])).toEqual({ command: node, args: ["a&calc"], windowsVerbatimArguments: false });
  });

  it("runs a script with a #! line through its interpreter, found on PATH", () => {
    expect(launch("C:\\proj\\server.js", ["x"])).toEqual({
      command: node,
      args: ["C:\\proj\\server.js", "x"],
      windowsVerbatimArguments: false,
    });
    expect(launch(".\\tool.py")).toEqual({
      command: "C:\\Python\\python3.exe",
      args: ["-u", "C:\\proj\\tool.py"],
      windowsVerbatimArguments: false,
    });
  });

  it("follows PATHEXT's order and does not search the current directory first (a planted npx.cmd is not run)", () => {
    expect(findWindowsCommand("npx", { env, cwd: "C:\\proj", platform })).toBe(npx);
    expect(findWindowsCommand("npx", { env: { ...env, PATHEXT: ".COM" }, cwd: "C:\\proj", platform })).toBeUndefined();
    // Without PATHEXT, Windows' default (.EXE;.CMD;.BAT;.COM) applies; file names are case-insensitive.
    const { PATHEXT: _, ...withoutPathext } = env;
    const bare = windowsPlatform(files, withoutPathext);
    expect(findWindowsCommand("npx", { env: withoutPathext, cwd: "C:\\proj", platform: bare })?.toLowerCase()).toBe(
      npx.toLowerCase(),
    );
  });

  it("fails with ENOENT, as spawn would, when nothing is found", () => {
    expect(() => launch("uvx")).toThrow(expect.objectContaining({ code: "ENOENT" }));
  });
});

describe("environment rules on Windows", () => {
  it("uses the SDK's inherited-variable list on this platform", () => {
    expect(INHERITED_ENV_VARS[process.platform === "win32" ? "win32" : "posix"]).toEqual(DEFAULT_INHERITED_ENV_VARS);
  });

  it("inherits Path as PATH asks, and an env PATH replaces it instead of standing beside it", () => {
    const host = { Path: "C:\\Windows", SystemRoot: "C:\\Windows", SECRET: "s", Temp: "C:\\Temp" };
    expect(buildServerEnvironment({}, host, "win32")).toEqual({
      Path: "C:\\Windows",
      SystemRoot: "C:\\Windows",
      Temp: "C:\\Temp",
    });
    expect(buildServerEnvironment({ env: { PATH: "D:\\bin" }, inheritEnv: ["secret"] }, host, "win32")).toEqual({
      PATH: "D:\\bin",
      SystemRoot: "C:\\Windows",
      Temp: "C:\\Temp",
      SECRET: "s",
    });
    // Elsewhere names are exact: "Path" is not PATH.
    expect(buildServerEnvironment({}, host, "linux")).toEqual({});
  });
});
