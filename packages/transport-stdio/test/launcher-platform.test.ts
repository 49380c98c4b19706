import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { readProcess } from "@mcp-tool-adapter/test-servers";
import { describe, expect, it } from "vitest";
import { nodePlatform, type StdioPlatform } from "../src/index.js";
import { findPerl } from "../src/own-process-group.js";
import { closeAfterEach, observe, waitFor } from "./helpers.js";

// The launcher a transport starts its server through is chosen for the platform it was given,
// not for the process it runs in: an injected platform that is not Linux x64 never gets the
// package's own Linux x64 launcher, whatever machine the tests run on.

const onLinuxX64 = process.platform === "linux" && process.arch === "x64";
const isNativeLauncher = (command: string): boolean => command.includes("own-group-linux-x64");
const ping: JSONRPCMessage = { jsonrpc: "2.0", id: 1, method: "ping" };
const { transports } = closeAfterEach();

/** `platform` with a spawn that records what the transport asked it to start. */
function recordingSpawns(platform: Pick<StdioPlatform, "name" | "arch">): {
  platform: StdioPlatform;
  spawned: string[];
} {
  const spawned: string[] = [];
  return {
    spawned,
    platform: {
      ...nodePlatform,
      ...platform,
      spawn(command, args, options) {
        spawned.push(command);
        return nodePlatform.spawn(command, args, options);
      },
    },
  };
}

/** Starts `cat` on `platform`, checks it echoes, and returns its pid. */
async function startCat(platform: StdioPlatform): Promise<number> {
  const observed = observe({ command: "cat" }, { platform });
  transports.push(observed.transport);
  const received: JSONRPCMessage[] = [];
  observed.transport.onmessage = (message) => received.push(message);
  await observed.transport.start();
  await observed.transport.send(ping);
  await waitFor(() => received.length === 1, "the echo");
  expect(received).toEqual([ping]);
  return observed.transport.pid!;
}

describe("the launcher a transport picks", () => {
  it.runIf(onLinuxX64)("is the native one for this machine's own platform (the control)", async () => {
    const { platform, spawned } = recordingSpawns(nodePlatform);
    const pid = await startCat(platform);
    expect(spawned.map(isNativeLauncher)).toEqual([true]);
    expect(readProcess(pid)?.pgid).toBe(pid);
  });

  it("is perl, not the native one, for an injected Linux on another processor", async () => {
    const { platform, spawned } = recordingSpawns({ name: "linux", arch: "arm64" });
    const pid = await startCat(platform);
    expect(spawned).toHaveLength(1);
    expect(isNativeLauncher(spawned[0]!)).toBe(false);
    const perl = findPerl(nodePlatform.env["PATH"]);
    expect(spawned).toEqual([perl ?? "cat"]);
    // Through perl the server still leads a process group of its own.
    if (perl !== undefined) {
      await waitFor(() => readProcess(pid)?.cmdline === "cat", "perl's exec of cat");
      expect(readProcess(pid)?.pgid).toBe(pid);
    }
  });

  it('is none for an injected platform that is not Linux (its family is "group": no launcher)', async () => {
    const { platform, spawned } = recordingSpawns({ name: "darwin", arch: "x64" });
    await startCat(platform);
    expect(spawned).toEqual(["cat"]);
  });
});
