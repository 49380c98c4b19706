import { spawn, type SpawnOptions } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTempDirectory, readProcess, type TempDirectory } from "@mcp-tool-adapter/test-servers";
import { afterEach, describe, expect, it } from "vitest";
import { nodePlatform, StdioTransport, type StdioPlatform } from "../src/index.js";
import { waitFor } from "./helpers.js";

// A file of its own: giving the native launcher up lasts for the rest of the process.
const onLinuxX64 = process.platform === "linux" && process.arch === "x64";

const directories: TempDirectory[] = [];
const transports: StdioTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
  await Promise.all(directories.splice(0).map((directory) => directory.remove()));
});

describe.runIf(onLinuxX64)("a native launcher the system refuses to execute", () => {
  it("is given up, and the server starts through perl instead, still leading its own group", async () => {
    const directory = await createTempDirectory();
    directories.push(directory);
    // There but not executable: exec fails with EACCES, as under an SELinux or AppArmor rule.
    const refused = join(directory.path, "not-executable");
    await writeFile(refused, "");
    const launchers: string[] = [];
    const platform: StdioPlatform = {
      ...nodePlatform,
      spawn(command: string, args: readonly string[], options: SpawnOptions) {
        launchers.push(command);
        const native = command.includes("own-group-linux-x64");
        return native ? spawn(refused, [...args], options) : nodePlatform.spawn(command, args, options);
      },
    };
    for (let started = 0; started < 2; started += 1) {
      const transport = new StdioTransport({ command: "cat" }, { platform });
      transports.push(transport);
      await transport.start();
      const pid = transport.pid!;
      await waitFor(() => readProcess(pid)?.cmdline === "cat", "perl's exec of cat");
      expect(readProcess(pid)?.pgid).toBe(pid);
    }
    // The first start tried the native launcher once, then perl; the second went to perl at once.
    expect(launchers.map((file) => (file.includes("own-group-linux-x64") ? "native" : file.split("/").pop()))).toEqual([
      "native",
      "perl",
      "perl",
    ]);
  });
});
