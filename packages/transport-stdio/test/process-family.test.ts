import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  hostileServerConfig,
  listOwnedProcesses,
  parseGrandchildPids,
  readProcess,
  watchProcess,
  watchProcessGroup,
  type HostileServerOptions,
} from "@mcp-tool-adapter/test-servers";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createStdioTransport,
  SERVER_TOKEN_ENV_VAR,
  StdioTransportError,
  type ProcessFamilyStrategy,
  type StdioTransport,
} from "../src/index.js";
import { createProcessFamily, defaultProcessFamily } from "../src/process-family.js";
import { closeAfterEach, environOf, isAlive, observe, waitFor, within, type Observed } from "./helpers.js";

// Ceilings for a hang, not speed assertions: a server start, its exit and the family's SIGTERM
// round took 12 s once on CI's two loaded cores.
const BOUND_MS = 30_000;
const FAMILIES = ["tagged", "group"] as const satisfies readonly ProcessFamilyStrategy[];

const { clients: openClients, transports: openTransports } = closeAfterEach();

function started(observed: Observed): Observed {
  openTransports.push(observed.transport);
  return observed;
}

async function startCat(processFamily?: ProcessFamilyStrategy): Promise<StdioTransport> {
  const { transport } = started(observe({ command: "cat" }, processFamily === undefined ? {} : { processFamily }));
  await transport.start();
  return transport;
}

/** A hostile server with a client connected; its grandchild's pid once it reported one. */
async function connectHostile(
  options: HostileServerOptions,
  processFamily: ProcessFamilyStrategy,
): Promise<{ observed: Observed; client: Client }> {
  const observed = started(observe(hostileServerConfig(options), { processFamily }));
  const client = new Client({ name: "process-family-test", version: "1.0.0" });
  openClients.push(client);
  await client.connect(observed.transport, { timeout: 20_000 });
  if (processFamily === "group") watchProcessGroup(observed.transport.pid!);
  return { observed, client };
}

async function grandchildOf(observed: Observed): Promise<number> {
  await waitFor(() => parseGrandchildPids(observed.transport.stderrTail).length > 0, "the grandchild's pid on stderr");
  return parseGrandchildPids(observed.transport.stderrTail)[0]!;
}

/**
 * The token in the process's environment. Read once the environment is readable: right after
 * start() the launcher may be in the middle of its exec of the server, when the kernel shows an
 * empty environment for a moment (a server started here always has some).
 */
async function tokenOf(pid: number): Promise<string | undefined> {
  await waitFor(() => environOf(pid).length > 0, `the environment of ${pid} after its exec`);
  const prefix = `${SERVER_TOKEN_ENV_VAR}=`;
  return environOf(pid)
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
}

describe("choosing a process family", () => {
  it('defaults to "tagged" where /proc can be read (the server keeps the host\'s session) and to "group" elsewhere', () => {
    expect(defaultProcessFamily()).toBe("tagged");
    expect(createStdioTransport({ command: "cat" }).processFamily).toBe("tagged");
    expect(createStdioTransport({ command: "cat" }, { processFamily: "group" }).processFamily).toBe("group");
    expect(defaultProcessFamily({ platform: "darwin" })).toBe("group");
    expect(createProcessFamily(undefined, "cat", { platform: "darwin" }).strategy).toBe("group");
    expect(createProcessFamily(undefined, "cat", { procRoot: "/nonexistent/proc" }).strategy).toBe("group");
  });

  it('refuses "tagged" where it cannot work, with a classified error instead of a silent fallback', () => {
    for (const system of [{ platform: "darwin" as const }, { procRoot: "/nonexistent/proc" }]) {
      let error: unknown;
      try {
        createProcessFamily("tagged", "my-server", system);
      } catch (caught) {
        error = caught;
      }
      expect(StdioTransportError.isInstance(error) && error.code).toBe("PROCESS_FAMILY_UNSUPPORTED");
      expect((error as Error).message).toMatch(/"my-server".*processFamily "group"/);
    }
  });

  it("rejects an unknown processFamily when the transport is created", () => {
    let error: unknown;
    try {
      createStdioTransport({ command: "cat" }, { processFamily: "session" as ProcessFamilyStrategy });
    } catch (caught) {
      error = caught;
    }
    expect(StdioTransportError.isInstance(error) && error.code).toBe("PROCESS_FAMILY_UNSUPPORTED");
    expect((error as Error).message).toContain('"tagged" or "group"');
  });
});

/** The server's process once its launcher made it lead a process group (a moment after start). */
async function inOwnGroup(transport: StdioTransport): Promise<NonNullable<ReturnType<typeof readProcess>>> {
  const pid = transport.pid!;
  await waitFor(() => readProcess(pid)?.pgid === pid, `server ${pid} leading its process group`);
  return readProcess(pid)!;
}

describe("the server's session", () => {
  for (const [what, family] of [
    ["by default (where /proc can be read)", undefined],
    ['with "tagged"', "tagged"],
  ] as const) {
    it(`${what} the server stays in the host's session, as with the SDK's transport, but leads a process group of its own`, async () => {
      const transport = await startCat(family);
      expect(transport.processFamily).toBe("tagged");
      const server = await inOwnGroup(transport);
      const host = readProcess(process.pid)!;
      expect(server.sid).toBe(host.sid);
      expect(server.sid).not.toBe(server.pid);
      expect(server.pgid).not.toBe(host.pgid);
      // Started through the launcher, yet the process is the server itself, with its own arguments:
      // the launcher joins its group first and then execs, so the name changes a moment later.
      await waitFor(() => readProcess(server.pid)?.cmdline === "cat", `server ${server.pid} running as "cat"`);
      expect(readProcess(server.pid)!.cmdline).toBe("cat");
    });
  }

  it('with "group" the server leads a session and process group of its own', async () => {
    const transport = await startCat("group");
    const server = readProcess(transport.pid!)!;
    expect(server.sid).toBe(server.pid);
    expect(server.pgid).toBe(server.pid);
    expect(server.sid).not.toBe(readProcess(process.pid)!.sid);
  });
});

describe("the server's token", () => {
  it("is a fresh 128-bit value per transport in the server's environment, and the config cannot override it", async () => {
    const first = await startCat("tagged");
    const second = started(
      observe({ command: "cat", env: { [SERVER_TOKEN_ENV_VAR]: "chosen-by-config" } }, { processFamily: "tagged" }),
    ).transport;
    await second.start();
    const firstToken = await tokenOf(first.pid!);
    const secondToken = await tokenOf(second.pid!);
    expect(SERVER_TOKEN_ENV_VAR).toBe("MCP_TOOL_ADAPTER_SERVER_TOKEN");
    expect(firstToken).toMatch(/^[0-9a-f]{32}$/);
    expect(secondToken).toMatch(/^[0-9a-f]{32}$/);
    expect(secondToken).not.toBe(firstToken);
  });

  it('is set with "group" too where /proc can be read (a child that left the group and session keeps it)', async () => {
    const transport = await startCat("group");
    expect(await tokenOf(transport.pid!)).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('processes only "tagged" can find', () => {
  it("a daemonized grandchild (double fork into its own session) is gone after close", async () => {
    const { observed, client } = await connectHostile(
      { spawnGrandchild: "serve", grandchildStyle: "daemon" },
      "tagged",
    );
    const grandchild = await grandchildOf(observed);
    const info = readProcess(grandchild)!;
    expect(info.sid).toBe(grandchild);
    expect(info.ppid).not.toBe(observed.transport.pid);
    expect(isAlive(grandchild)).toBe(true);

    await within(client.close(), BOUND_MS, "close");
    expect(isAlive(grandchild)).toBe(false);
  });

  it("a daemonized grandchild of a server that then exits is gone once the transport closes itself", async () => {
    const observed = started(observe(hostileServerConfig({ spawnGrandchild: "exit", grandchildStyle: "daemon" })));
    await observed.transport.start();
    await within(observed.closed, BOUND_MS, "onclose");
    const grandchild = parseGrandchildPids(observed.transport.stderrTail)[0]!;
    expect(grandchild).toBeGreaterThan(0);
    await within(observed.transport.close(), BOUND_MS, "close");
    expect(isAlive(grandchild)).toBe(false);
  });
});

describe("a child that empties its environment and loses its parent before any snapshot (default settings)", () => {
  // The transport's periodic family snapshots are its only setInterval. Faked, they never run, so
  // each run below tests the window before any snapshot for certain: on a loaded machine the real
  // 250 ms ticks fell into it in run after run, and such a run proved nothing about the window.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Pids the transport's snapshots noted, from its debug log. */
  function snapshotLog(): {
    seen: Set<number>;
    logger: { debug: (message: string, fields?: Record<string, unknown>) => void };
  } {
    const seen = new Set<number>();
    const logger = {
      debug: (message: string, fields?: Record<string, unknown>) => {
        if (message === "MCP server started processes") for (const pid of fields?.["pids"] as number[]) seen.add(pid);
      },
    };
    return { seen, logger };
  }

  /** One run: the server starts the child, goes `how` 10 ms later; true when no snapshot saw the child. */
  async function runOnce(how: "exit" | "crash"): Promise<boolean> {
    const { seen, logger } = snapshotLog();
    const observed = observe(
      hostileServerConfig({ spawnGrandchild: how, exitAfterGrandchildMs: 10, grandchildStyle: "scrubbed-env" }),
      { logger },
    );
    openTransports.push(observed.transport);
    await observed.transport.start();
    const serverPid = observed.transport.pid!;
    await waitFor(
      () => parseGrandchildPids(observed.transport.stderrTail).length > 0,
      "the grandchild's pid on stderr",
    );
    const grandchild = parseGrandchildPids(observed.transport.stderrTail)[0]!;
    // The leak check finds it however it got away.
    watchProcess(grandchild);
    await within(observed.closed, BOUND_MS, "the transport closing after the server went");
    expect(observed.transport.exit).toEqual(
      how === "exit" ? { code: 0, signal: null } : { code: null, signal: "SIGKILL" },
    );
    await within(observed.transport.close(), BOUND_MS, "close");

    expect(isAlive(serverPid)).toBe(false);
    expect(isAlive(grandchild), `grandchild ${grandchild}: ${JSON.stringify(readProcess(grandchild))}`).toBe(false);
    expect(listOwnedProcesses()).toEqual([]);
    return !seen.has(grandchild);
  }

  it.each(["exit", "crash"] as const)(
    "a server that starts it and goes (%s) 10 ms later leaves nothing running once its transport closed",
    async (how) => {
      expect(await runOnce(how), "a snapshot saw the child: the window was not tested").toBe(true);
    },
  );

  // Server -> A (keeps the token, holds the server's stdout) -> B (empty environment, own session).
  // The server exits as soon as B runs. The test kills A once the transport has seen that exit (the
  // family lookup at the exit runs in the same turn that records it), which ends the stdio drain
  // and orphans B with nothing that ties it to the server: only the lookup at the server's exit,
  // when B was still A's child, knows it. A killed by the test, not by a timer of its own: a timer
  // raced the server's exit event, which a loaded CI machine delivered more than 200 ms late.
  const B_SCRIPT = "setInterval(() => {}, 1000); setTimeout(() => process.exit(0), 60000);";
  const A_SCRIPT = `
    const { spawn } = require("node:child_process");
    const b = spawn(process.execPath, ["-e", ${JSON.stringify(B_SCRIPT)}], { env: {}, detached: true, stdio: "ignore" });
    process.stderr.write("a-pid=" + process.pid + " b-pid=" + b.pid + "\\n");
    setInterval(() => {}, 1000);
  `;
  const SERVER_SCRIPT = `
    const { spawn } = require("node:child_process");
    const a = spawn(process.execPath, ["-e", ${JSON.stringify(A_SCRIPT)}], { stdio: ["ignore", "inherit", "pipe"] });
    a.stderr.on("data", (chunk) => {
      process.stderr.write(chunk);
      if (String(chunk).includes("b-pid=")) process.exit(0);
    });
  `;

  it("a grandchild that leaves the session with an empty environment, orphaned while the server's output drains, is stopped", async () => {
    const { seen, logger } = snapshotLog();
    const observed = observe({ command: process.execPath, args: ["-e", SERVER_SCRIPT] }, { logger });
    openTransports.push(observed.transport);
    await observed.transport.start();
    await waitFor(
      () => observed.transport.exit !== undefined && observed.transport.stderrTail.includes("b-pid="),
      "the server's exit and its report of A and B",
      BOUND_MS,
    );
    const a = Number(/a-pid=(\d+)/.exec(observed.transport.stderrTail)?.[1]);
    const b = Number(/b-pid=(\d+)/.exec(observed.transport.stderrTail)?.[1]);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    watchProcess(a);
    watchProcess(b);
    process.kill(a, "SIGKILL");
    await within(observed.closed, BOUND_MS, "the transport closing after the server went");
    await within(observed.transport.close(), BOUND_MS, "close");
    expect(isAlive(b), `B ${b}: ${JSON.stringify(readProcess(b))}`).toBe(false);
    expect(listOwnedProcesses()).toEqual([]);
    expect(seen.has(b), "a snapshot saw B: the window was not tested").toBe(false);
  });

  it("a connected server that crashes mid-call right after starting it leaves nothing running after disconnect", async () => {
    const observed = started(observe(hostileServerConfig({ grandchildStyle: "scrubbed-env" })));
    const client = new Client({ name: "process-family-test", version: "1.0.0" });
    openClients.push(client);
    await client.connect(observed.transport, { timeout: 20_000 });
    // Starts the child and exits in the same tick: no snapshot can see it.
    await expect(client.callTool({ name: "crash", arguments: { grandchild: true } })).rejects.toThrow();
    const grandchild = parseGrandchildPids(observed.transport.stderrTail)[0]!;
    watchProcess(grandchild);
    await within(client.close(), BOUND_MS, "disconnect");
    expect(isAlive(grandchild), `grandchild ${grandchild}: ${JSON.stringify(readProcess(grandchild))}`).toBe(false);
    expect(listOwnedProcesses()).toEqual([]);
  });

  it("on disconnect from a live server, its child just started is stopped with it, found through the server's process group", async () => {
    const observed = started(
      observe(hostileServerConfig({ spawnGrandchild: "serve", grandchildStyle: "scrubbed-env" })),
    );
    const client = new Client({ name: "process-family-test", version: "1.0.0" });
    openClients.push(client);
    await client.connect(observed.transport, { timeout: 20_000 });
    const grandchild = await grandchildOf(observed);
    watchProcess(grandchild);
    expect(environOf(grandchild)).toEqual([]);
    expect(readProcess(grandchild)?.pgid).toBe(observed.transport.pid);
    await within(client.close(), BOUND_MS, "disconnect");
    expect(isAlive(observed.transport.pid!)).toBe(false);
    expect(isAlive(grandchild)).toBe(false);
    expect(listOwnedProcesses()).toEqual([]);
  });
});

describe.each(FAMILIES)("servers that start processes of their own (processFamily %s)", (processFamily) => {
  it("a grandchild with a scrubbed environment, still a child of the live server, is gone after close", async () => {
    const { observed, client } = await connectHostile(
      { spawnGrandchild: "serve", grandchildStyle: "scrubbed-env" },
      processFamily,
    );
    const grandchild = await grandchildOf(observed);
    expect(readProcess(grandchild)?.ppid).toBe(observed.transport.pid);
    expect(environOf(grandchild)).toEqual([]);

    await within(client.close(), BOUND_MS, "close");
    expect(isAlive(grandchild)).toBe(false);
  });

  it("a grandchild re-parented when the server exited mid-session is gone", async () => {
    const { observed, client } = await connectHostile({}, processFamily);
    const result = await client.callTool({ name: "spawn-grandchild-and-exit", arguments: {} });
    const { grandchildPid } = JSON.parse((result.content as { text: string }[])[0]!.text) as { grandchildPid: number };
    await within(observed.closed, BOUND_MS, "the transport closing after the server exited");
    expect(observed.transport.closeReason?.code).toBe("SERVER_EXITED");
    await within(observed.transport.close(), BOUND_MS, "close");
    expect(isAlive(grandchildPid)).toBe(false);
  });

  it("a grandchild re-parented and then stopped by SIGTERM needs no SIGKILL, even while its zombie waits for PID 1", async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message) };
    const observed = started(observe(hostileServerConfig({}), { processFamily, logger }));
    const client = new Client({ name: "process-family-test", version: "1.0.0" });
    openClients.push(client);
    await client.connect(observed.transport, { timeout: 20_000 });
    if (processFamily === "group") watchProcessGroup(observed.transport.pid!);
    const result = await client.callTool({ name: "spawn-grandchild-and-exit", arguments: {} });
    const { grandchildPid } = JSON.parse((result.content as { text: string }[])[0]!.text) as { grandchildPid: number };
    await within(observed.closed, BOUND_MS, "the transport closing after the server exited");
    await within(observed.transport.close(), BOUND_MS, "close");
    expect(isAlive(grandchildPid)).toBe(false);
    expect(warnings.filter((message) => message.includes("SIGKILL"))).toEqual([]);
  });

  // close() scans the family once the server has its EOF, while the server winds down, and after
  // its exit reads only the processes started since: a child started in between must be found.
  it.each([
    ["keeps the server's environment", false],
    ["has an empty environment (only the server's group ties it)", true],
  ])(
    "a child the server starts after its EOF, just before it exits, %s and is gone after close",
    async (_what, scrub) => {
      const child = "setInterval(() => {}, 1000); setTimeout(() => process.exit(0), 60000);";
      const server = `
      const { spawn } = require("node:child_process");
      process.stdin.resume();
      process.stderr.write("ready\\n");
      process.stdin.on("end", () => setTimeout(() => {
        const child = spawn(process.execPath, ["-e", ${JSON.stringify(child)}], { env: ${scrub ? "{}" : "process.env"}, stdio: "ignore" });
        process.stderr.write("grandchild-pid=" + child.pid + "\\n");
        process.exit(0);
      }, 100));
    `;
      const observed = started(observe({ command: process.execPath, args: ["-e", server] }, { processFamily }));
      await observed.transport.start();
      if (processFamily === "group") watchProcessGroup(observed.transport.pid!);
      // Its EOF must find it listening: a close during Node's start-up would stop it before its child.
      await waitFor(() => observed.transport.stderrTail.includes("ready"), "the server listening for its EOF");
      await within(observed.transport.close(), BOUND_MS, "close");
      const grandchild = parseGrandchildPids(observed.transport.stderrTail)[0]!;
      expect(grandchild).toBeGreaterThan(0);
      watchProcess(grandchild);
      expect(isAlive(grandchild), `grandchild ${grandchild}: ${JSON.stringify(readProcess(grandchild))}`).toBe(false);
      expect(listOwnedProcesses()).toEqual([]);
    },
  );

  it("closing one transport leaves another transport's server and grandchild alone", async () => {
    const first = await connectHostile({ spawnGrandchild: "serve" }, processFamily);
    const second = await connectHostile({ spawnGrandchild: "serve" }, processFamily);
    const firstGrandchild = await grandchildOf(first.observed);
    const secondGrandchild = await grandchildOf(second.observed);

    await within(first.client.close(), BOUND_MS, "closing the first");
    expect(isAlive(first.observed.transport.pid!)).toBe(false);
    expect(isAlive(firstGrandchild)).toBe(false);
    expect(isAlive(second.observed.transport.pid!)).toBe(true);
    expect(isAlive(secondGrandchild)).toBe(true);
    const echoed = await second.client.callTool({ name: "echo", arguments: { still: "here" } });
    expect(JSON.stringify(echoed.content)).toContain("here");

    await within(second.client.close(), BOUND_MS, "closing the second");
    expect(isAlive(secondGrandchild)).toBe(false);
  });
});
