import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ErrorCode, McpError, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import {
  expectNoLeakedProcesses,
  hostileServerConfig,
  parseGrandchildPids,
  readProcess,
  type HostileServerOptions,
} from "../src/index.js";

// Raw SDK client and transport on purpose: this suite checks the fixture, not our transports.

/** Alive and not a zombie (an orphan's zombie lingers where PID 1 does not reap). */
function isAlive(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== "Z";
}

async function waitUntilGone(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

interface Session {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  transportErrors: Error[];
}

const sessions: Session[] = [];
const trackedPids = new Set<number>();

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.client.close().catch(() => undefined)));
  const leftovers: number[] = [];
  for (const pid of trackedPids) {
    if (!(await waitUntilGone(pid))) {
      leftovers.push(pid);
      process.kill(pid, "SIGKILL");
    }
  }
  trackedPids.clear();
  expect(leftovers, "processes left running after the test").toEqual([]);
  // Grandchildren are re-parented away from us, hence the pid tracking above; this catches the rest.
  await expectNoLeakedProcesses();
});

function startSession(options: HostileServerOptions = {}): Session {
  const config = hostileServerConfig(options);
  const transport = new StdioClientTransport({ ...config, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "hostile-server-test", version: "1.0.0" });
  const session: Session = { client, transport, stderr: () => stderr, transportErrors: [] };
  client.onerror = (error) => session.transportErrors.push(error);
  sessions.push(session);
  return session;
}

async function connect(options: HostileServerOptions = {}): Promise<Session> {
  const session = startSession(options);
  // Generous: on CI the server starts while six suites share two cores (10 s timed out once).
  await session.client.connect(session.transport, { timeout: 30_000 });
  trackedPids.add(session.transport.pid!);
  return session;
}

/** The NUL-separated strings of a process's environment. */
function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, "utf8")
    .split("\0")
    .filter((entry) => entry !== "");
}

function firstText(result: unknown): string {
  const [item] = (result as CallToolResult).content;
  if (item?.type !== "text") throw new Error(`expected a text item, got ${JSON.stringify(item)}`);
  return item.text;
}

// Ceilings for a hang: a server start took over 10 s once on CI's two loaded cores.
async function waitForStderr(session: Session, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (!pattern.test(session.stderr())) {
    if (Date.now() > deadline) throw new Error(`stderr never matched ${pattern}: ${session.stderr()}`);
    await sleep(20);
  }
  return session.stderr();
}

/** The grandchild pid the server reports on stderr, tracked so afterEach kills it if a test does not. */
async function trackedGrandchildPid(session: Session): Promise<number> {
  const [pid] = parseGrandchildPids(await waitForStderr(session, /grandchild-pid=\d+/));
  if (pid === undefined) throw new Error(`no grandchild pid on stderr: ${session.stderr()}`);
  trackedPids.add(pid);
  return pid;
}

describe("hostile server: normal tools", () => {
  it("serves the standard tools and echoes arguments", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["echo", "crash", "hang", "slow", "garbage", "huge", "proto", "error", "throw", "pid"]),
    );
    const result = await client.callTool({ name: "echo", arguments: { a: 1, b: "two" } });
    expect(JSON.parse(firstText(result))).toEqual({ a: 1, b: "two" });
  });

  it("answers its own pid, process group and session", async () => {
    const session = await connect();
    const info = JSON.parse(firstText(await session.client.callTool({ name: "pid", arguments: {} }))) as {
      pid: number;
      pgid: number;
      sid: number;
    };
    const seen = readProcess(session.transport.pid!)!;
    expect(info).toEqual({ pid: session.transport.pid, pgid: seen.pgid, sid: seen.sid });
  });

  it("answers a tool error and a JSON-RPC error", async () => {
    const { client } = await connect();
    const result = (await client.callTool({ name: "error", arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    const thrown = await client.callTool({ name: "throw", arguments: {} }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(McpError);
    expect((thrown as McpError).code).toBe(ErrorCode.InternalError);
  });

  it("answers slowly with progress notifications, each one before the answer", async () => {
    const { client, transport } = await connect();
    // Read off the transport, in the order the server wrote them: the SDK client hands a
    // notification to its handler a tick after a response that came in the same read, so on a
    // loaded machine its onprogress can miss the last one even though the server sent it first.
    const received: string[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      if ("method" in message && message.method === "notifications/progress")
        received.push(`progress ${String(message.params?.progress)}`);
      else if ("result" in message) received.push("result");
      deliver?.(message);
    };
    // An onprogress handler is what makes the client send a progress token, without which the server reports none.
    const result = await client.callTool({ name: "slow", arguments: { ms: 100, steps: 4 } }, undefined, {
      onprogress: () => undefined,
    });
    expect(firstText(result)).toBe("slept 100 ms");
    expect(received).toEqual(["progress 1", "progress 2", "progress 3", "progress 4", "result"]);
  });

  it("answers a result of the requested size", async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: "huge", arguments: { mb: 1 } });
    expect(firstText(result)).toHaveLength(1024 * 1024);
  });

  it("sees only the environment it was given and its arguments verbatim", async () => {
    const hostile = "a; rm -rf / && echo $(whoami) `id` | cat > x";
    const { client } = await connect({ env: { HOSTILE_GIVEN: "given" }, extraArgs: [hostile] });
    const given = JSON.parse(
      firstText(await client.callTool({ name: "env", arguments: { name: "HOSTILE_GIVEN" } })),
    ) as { value: string };
    expect(given.value).toBe("given");
    const args = JSON.parse(firstText(await client.callTool({ name: "argv", arguments: {} }))) as string[];
    expect(args.at(-1)).toBe(hostile);
  });
});

describe("hostile server: misbehaving tools", () => {
  it("crash exits the server mid-call", async () => {
    const session = await connect();
    const closed = new Promise<void>((resolve) => {
      session.client.onclose = resolve;
    });
    const failure = await session.client.callTool({ name: "crash", arguments: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.ConnectionClosed);
    await closed;
    expect(session.stderr()).toContain("crashing mid-call");
  });

  it("hang never answers", async () => {
    const { client } = await connect();
    const failure = await client
      .callTool({ name: "hang", arguments: {} }, undefined, { timeout: 300 })
      .catch((error: unknown) => error);
    expect((failure as McpError).code).toBe(ErrorCode.RequestTimeout);
    // The server itself still works after a hung call.
    expect(JSON.parse(firstText(await client.callTool({ name: "echo", arguments: { after: "hang" } })))).toEqual({
      after: "hang",
    });
  });

  it("garbage writes invalid lines, then answers", async () => {
    const session = await connect();
    const result = await session.client.callTool({ name: "garbage", arguments: { still: "works" } });
    expect(JSON.parse(firstText(result))).toEqual({ still: "works" });
    expect(session.transportErrors.length).toBeGreaterThan(3);
  });

  it("proto writes __proto__ and constructor as own keys on the wire", async () => {
    const config = hostileServerConfig();
    const child = spawn(config.command, config.args, { stdio: ["pipe", "pipe", "ignore"] });
    trackedPids.add(child.pid!);
    const lines = createInterface({ input: child.stdout });
    const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "proto", arguments: {} } });
    let raw: string | undefined;
    for await (const line of lines) {
      if (line.includes('"id":1')) {
        raw = line;
        break;
      }
    }
    child.stdin.end();
    await once(child, "exit");
    const message = JSON.parse(raw!) as {
      result: { structuredContent: Record<string, unknown>; content: Record<string, unknown>[] };
    };
    expect(Object.hasOwn(message.result.structuredContent, "__proto__")).toBe(true);
    expect(Object.hasOwn(message.result.structuredContent, "constructor")).toBe(true);
    expect(Object.hasOwn(message.result.content[0]!, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("proto with placement nested passes the SDK client with own __proto__ keys one level down", async () => {
    const { client } = await connect();
    const result = (await client.callTool({ name: "proto", arguments: { placement: "nested" } })) as CallToolResult;
    const nested = (result.structuredContent as { nested: object }).nested;
    expect(Object.hasOwn(nested, "__proto__")).toBe(true);
    expect(Object.hasOwn(nested, "constructor")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("spawn-grandchild-and-exit leaves a live grandchild behind", async () => {
    const session = await connect();
    const serverPid = session.transport.pid!;
    const result = await session.client.callTool({ name: "spawn-grandchild-and-exit", arguments: {} });
    const { grandchildPid } = JSON.parse(firstText(result)) as { grandchildPid: number };
    trackedPids.add(grandchildPid);
    expect(await waitUntilGone(serverPid)).toBe(true);
    expect(isAlive(grandchildPid)).toBe(true);
    // The SDK's transport does not reap grandchildren (that is what the fixture is for).
    process.kill(grandchildPid, "SIGKILL");
  });
});

describe("hostile server: startup modes", () => {
  it("--exit-at-start exits 3 with a message on stderr", async () => {
    const session = startSession({ exitAtStart: true });
    const failure = await session.client
      .connect(session.transport, { timeout: 30_000 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(await waitForStderr(session, /exiting at start/)).toContain("--exit-at-start");
  });

  it("--never-initialize never answers the handshake and outlives its stdin", async () => {
    const session = startSession({ neverInitialize: true });
    const failure = await session.client.connect(session.transport, { timeout: 300 }).catch((error: unknown) => error);
    expect((failure as McpError).code).toBe(ErrorCode.RequestTimeout);
    const pid = session.transport.pid;
    // A timed-out connect closes the transport; the server only goes once killed.
    if (pid !== null) trackedPids.add(pid);
  });

  it("--garbage-at-start writes invalid lines, then serves", async () => {
    const session = await connect({ garbageAtStart: true });
    expect(JSON.parse(firstText(await session.client.callTool({ name: "echo", arguments: { x: 1 } })))).toEqual({
      x: 1,
    });
    expect(session.transportErrors.length).toBeGreaterThan(3);
  });

  it("--spawn-grandchild reports the grandchild, then serves", async () => {
    const session = await connect({ spawnGrandchild: "serve" });
    const serverPid = session.transport.pid!;
    const grandchildPid = await trackedGrandchildPid(session);
    expect(isAlive(grandchildPid)).toBe(true);
    expect(JSON.parse(firstText(await session.client.callTool({ name: "echo", arguments: {} })))).toEqual({});
    await session.client.close();
    // The server is gone after close, its grandchild is not: the SDK transport leaves it behind.
    expect(await waitUntilGone(serverPid)).toBe(true);
    expect(isAlive(grandchildPid)).toBe(true);
    process.kill(grandchildPid, "SIGKILL");
  });

  it("--spawn-grandchild-and-exit reports the grandchild and exits", async () => {
    const session = startSession({ spawnGrandchild: "exit" });
    await session.client.connect(session.transport, { timeout: 5_000 }).catch(() => undefined);
    const grandchildPid = await trackedGrandchildPid(session);
    expect(isAlive(grandchildPid)).toBe(true);
    process.kill(grandchildPid, "SIGKILL");
  });

  it("--grandchild-style=daemon starts a grandchild that is an orphan in a session of its own, keeping the environment", async () => {
    const session = await connect({
      spawnGrandchild: "serve",
      grandchildStyle: "daemon",
      env: { HOSTILE_FIXTURE_MARK: "kept" },
    });
    const serverPid = session.transport.pid!;
    const grandchildPid = await trackedGrandchildPid(session);
    const grandchild = readProcess(grandchildPid)!;
    const server = readProcess(serverPid)!;
    expect(grandchild.state).not.toBe("Z");
    expect(grandchild.ppid).not.toBe(serverPid);
    expect(grandchild.sid).toBe(grandchildPid);
    expect(grandchild.pgid).toBe(grandchildPid);
    expect(grandchild.sid).not.toBe(server.sid);
    expect(environOf(grandchildPid)).toContain("HOSTILE_FIXTURE_MARK=kept");
    process.kill(grandchildPid, "SIGKILL");
  });

  it("--grandchild-style=scrubbed-env starts a child of the server with an empty environment", async () => {
    const session = await connect({
      spawnGrandchild: "serve",
      grandchildStyle: "scrubbed-env",
      env: { HOSTILE_FIXTURE_MARK: "dropped" },
    });
    const serverPid = session.transport.pid!;
    const grandchildPid = await trackedGrandchildPid(session);
    expect(readProcess(grandchildPid)?.ppid).toBe(serverPid);
    expect(environOf(serverPid)).toContain("HOSTILE_FIXTURE_MARK=dropped");
    expect(environOf(grandchildPid)).toEqual([]);
    process.kill(grandchildPid, "SIGKILL");
  });

  it("--grandchild-style=new-group starts a child of the server in a process group of its own, in the server's session, keeping the environment", async () => {
    const session = await connect({
      spawnGrandchild: "serve",
      grandchildStyle: "new-group",
      env: { HOSTILE_FIXTURE_MARK: "kept" },
    });
    const serverPid = session.transport.pid!;
    const grandchildPid = await trackedGrandchildPid(session);
    const grandchild = readProcess(grandchildPid)!;
    const server = readProcess(serverPid)!;
    expect(grandchild.ppid).toBe(serverPid);
    expect(grandchild.pgid).toBe(grandchildPid);
    expect(grandchild.pgid).not.toBe(server.pgid);
    expect(grandchild.sid).toBe(server.sid);
    expect(grandchild.cmdline).toMatch(/^\S*node -e /);
    expect(environOf(grandchildPid)).toContain("HOSTILE_FIXTURE_MARK=kept");
    process.kill(grandchildPid, "SIGKILL");
  });

  it("spawn-grandchild answers the grandchild's pid and keeps serving; crash {grandchild} starts one, then exits mid-call", async () => {
    const session = await connect({ grandchildStyle: "scrubbed-env" });
    const serverPid = session.transport.pid!;
    const { grandchildPid } = JSON.parse(
      firstText(await session.client.callTool({ name: "spawn-grandchild", arguments: {} })),
    ) as { grandchildPid: number };
    trackedPids.add(grandchildPid);
    expect(readProcess(grandchildPid)?.ppid).toBe(serverPid);
    expect(environOf(grandchildPid)).toEqual([]);
    expect(JSON.parse(firstText(await session.client.callTool({ name: "echo", arguments: { still: 1 } })))).toEqual({
      still: 1,
    });

    const call = session.client.callTool({ name: "crash", arguments: { grandchild: true } });
    await expect(call).rejects.toThrow();
    const second = parseGrandchildPids(await waitForStderr(session, /grandchild-pid=\d+[\s\S]*grandchild-pid=\d+/))[1]!;
    trackedPids.add(second);
    expect(await waitUntilGone(serverPid)).toBe(true);
    expect(isAlive(second)).toBe(true);
    process.kill(grandchildPid, "SIGKILL");
    process.kill(second, "SIGKILL");
  });

  it("exit answers, then exits", async () => {
    const session = await connect();
    const serverPid = session.transport.pid!;
    expect(firstText(await session.client.callTool({ name: "exit", arguments: { code: 4 } }))).toBe("exiting");
    expect(await waitUntilGone(serverPid)).toBe(true);
  });

  it("--tools with --page-size lists generated tools page by page", async () => {
    const { client } = await connect({ tools: 25, pageSize: 10 });
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      pages.push(page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(Array.from({ length: 25 }, (_, i) => `tool_${i}`));
  });

  it("--bad-names lists hostile tool names", async () => {
    const { client } = await connect({ badNames: true });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["../x", "a/b", "", "__proto__", "constructor", "ok_tool"]));
    expect(names.some((n) => n.length === 10 * 1024)).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(names.filter((n) => /[\u0000-\u001f]/.test(n)).length).toBeGreaterThanOrEqual(3);
  });

  it("--bad-schemas lists hostile input schemas", async () => {
    const { client } = await connect({ badSchemas: true });
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(["remote_ref", "recursive_ref", "ref_loop", "invalid_schema", "ok_tool"]);
    expect(JSON.stringify(tools[0]!.inputSchema)).toContain("https://example.invalid/x.json");
  });

  it("--ignore-sigterm survives SIGTERM until SIGKILL", async () => {
    // The one stderr byte comes after the SIGTERM handler is installed: a readiness signal.
    const config = hostileServerConfig({ neverInitialize: true, ignoreSigterm: true, stderrFloodBytes: 1 });
    const child = spawn(config.command, config.args, { stdio: ["pipe", "ignore", "pipe"] });
    trackedPids.add(child.pid!);
    await once(child.stderr, "data");
    child.kill("SIGTERM");
    await sleep(300);
    expect(isAlive(child.pid!)).toBe(true);
    child.kill("SIGKILL");
    await once(child, "exit");
  });
});
