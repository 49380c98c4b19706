import { listOwnedProcesses, parseGrandchildPids, readProcess } from "@mcp-tool-adapter/test-servers";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { MCPConnectionError, MCPNotConnectedError, ToolRegistry, type MCPProgress } from "../../src/index.js";
import {
  connectWatched,
  hostileAdapter,
  networkActivity,
  resultJson,
  useReliabilityChecks,
  watchServerGroups,
} from "./support.js";

useReliabilityChecks();

/** The whole chain of messages of an error and its causes. */
function messageChain(error: unknown): string {
  const parts: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 10; current = current.cause, depth++)
    parts.push(current.message);
  return parts.join(" <- ");
}

async function connectFailure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error("connect() resolved but was expected to fail"),
    (error: unknown) => error,
  );
}

function isGone(pid: number): boolean {
  const info = readProcess(pid);
  return info === undefined || info.state === "Z";
}

async function waitUntilGone(pid: number, timeoutMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!isGone(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

describe("hostile server: startup", () => {
  it("a server that exits at start fails connect with MCPConnectionError", async () => {
    const adapter = hostileAdapter({ exitAtStart: true });
    const error = await connectFailure(adapter.connect({ timeoutMs: 30_000 }));
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect(adapter.isConnected).toBe(false);
  });

  it("a server that exits at start: the connect error names the exit and the server's stderr", async () => {
    const adapter = hostileAdapter({ exitAtStart: true });
    const error = await connectFailure(adapter.connect({ timeoutMs: 30_000 }));
    expect((error as Error).message).toMatch(
      /the server exited with code \d+; its stderr ended with: .*exiting at start/,
    );
    expect(((error as Error).cause as { code?: unknown }).code).toBe("SERVER_EXITED");
    expect(messageChain(error)).not.toContain("Connection closed");
  });

  it("a server that never answers initialize fails connect with a timeout and is killed", async () => {
    const adapter = hostileAdapter({ neverInitialize: true });
    const error = await connectFailure(adapter.connect({ timeoutMs: 500 }));
    watchServerGroups();
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/timed out after 500 ms/);
    expect(adapter.isConnected).toBe(false);
  });

  it("a server that ignores SIGTERM is still killed after a failed connect", async () => {
    const adapter = hostileAdapter({ neverInitialize: true, ignoreSigterm: true });
    const error = await connectFailure(adapter.connect({ timeoutMs: 500 }));
    watchServerGroups();
    expect(MCPConnectionError.isInstance(error)).toBe(true);
  });

  it("garbage on stdout before the handshake is skipped", async () => {
    const adapter = hostileAdapter({ garbageAtStart: true });
    await connectWatched(adapter);
    expect(resultJson(await adapter.invoke("echo", { after: "garbage" }))).toEqual({ after: "garbage" });
  });

  it("a grandchild the server started is gone after disconnect", async () => {
    const adapter = hostileAdapter({ spawnGrandchild: "serve" });
    await connectWatched(adapter);
    const { pid } = resultJson(await adapter.invoke("pid")) as { pid: number };
    const family = listOwnedProcesses()
      .filter((p) => p.pid === pid || p.ppid === pid)
      .map((p) => p.pid);
    expect(family.length).toBeGreaterThanOrEqual(2);
    await adapter.disconnect();
    const deadline = Date.now() + 30_000;
    while (family.some((member) => !isGone(member)) && Date.now() < deadline) await sleep(25);
    expect(family.filter((member) => !isGone(member))).toEqual([]);
  });

  it.each([
    ['the default ("tagged" on Linux)', "the host's", {}],
    ['processFamily "group"', "its own", { transportOptions: { stdio: { processFamily: "group" as const } } }],
  ])(
    "with %s the server runs in %s session, and its grandchild is gone after disconnect",
    async (_, session, options) => {
      const logged: string[] = [];
      const adapter = hostileAdapter(
        { spawnGrandchild: "serve" },
        { ...options, logger: { debug: (message) => logged.push(message) } },
      );
      await connectWatched(adapter);
      const { pid, sid } = resultJson(await adapter.invoke("pid")) as { pid: number; sid: number };
      expect(sid).toBe(session === "its own" ? pid : readProcess(process.pid)?.sid);
      const [grandchildPid] = parseGrandchildPids(logged.join("\n"));
      expect(isGone(grandchildPid!)).toBe(false);
      await adapter.disconnect();
      expect(await waitUntilGone(grandchildPid!)).toBe(true);
    },
  );

  it("a daemonized grandchild (its own session, re-parented at once) is gone after disconnect", async () => {
    const logged: string[] = [];
    const adapter = hostileAdapter(
      { spawnGrandchild: "serve", grandchildStyle: "daemon" },
      { logger: { debug: (message) => logged.push(message) } },
    );
    await connectWatched(adapter);
    const [grandchildPid] = parseGrandchildPids(logged.join("\n"));
    expect(isGone(grandchildPid!)).toBe(false);
    expect(readProcess(grandchildPid!)?.sid).toBe(grandchildPid);
    await adapter.disconnect();
    expect(await waitUntilGone(grandchildPid!)).toBe(true);
  });

  it("a server that starts a grandchild and exits fails connect and leaves nothing behind", async () => {
    const logged: string[] = [];
    const adapter = hostileAdapter(
      { spawnGrandchild: "exit" },
      { logger: { debug: (message) => logged.push(message) } },
    );
    const error = await connectFailure(adapter.connect({ timeoutMs: 30_000 }));
    expect(MCPConnectionError.isInstance(error)).toBe(true);
    // The transport logs the server's stderr at debug level, which is where the grandchild's pid is.
    const [grandchildPid] = parseGrandchildPids(logged.join("\n"));
    expect(grandchildPid).toBeGreaterThan(0);
    expect(await waitUntilGone(grandchildPid!)).toBe(true);
  });
});

describe("hostile server: misbehaving tools", () => {
  it("crash mid-call is connection_lost; reconnect restores service", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const result = await adapter.invoke("crash");
    expect(result).toMatchObject({ success: false, errorKind: "connection_lost", data: null });
    expect(result.error).toMatch(/connection lost/);
    expect(adapter.isConnected).toBe(false);
    await expect(adapter.invoke("echo")).rejects.toSatisfy((error: unknown) => MCPNotConnectedError.isInstance(error));
    await adapter.reconnect({ timeoutMs: 30_000 });
    watchServerGroups();
    expect(resultJson(await adapter.invoke("echo", { back: true }))).toEqual({ back: true });
  });

  it("hang is a timeout result; the connection keeps working", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const result = await adapter.invoke("hang", {}, { timeoutMs: 300 });
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(result.error).toMatch(/timeout/);
    expect(resultJson(await adapter.invoke("echo", { still: "alive" }))).toEqual({ still: "alive" });
  });

  it("hang can be cancelled by the caller's signal", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const controller = new AbortController();
    const pending = adapter.invoke("hang", {}, { signal: controller.signal, timeoutMs: 30_000 });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ success: false, errorKind: "cancelled" });
  });

  it("slow reports progress, and progress keeps the deadline moving when asked", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const progress: MCPProgress[] = [];
    const result = await adapter.invoke(
      "slow",
      { ms: 2000, steps: 20 },
      {
        timeoutMs: 1000,
        resetTimeoutOnProgress: true,
        onProgress: (p) => progress.push(p),
      },
    );
    expect(result.error).toBeNull();
    expect(progress.map((p) => p.progress)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("garbage lines between answers are skipped and later calls still work", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    expect(resultJson(await adapter.invoke("garbage", { n: 1 }))).toEqual({ n: 1 });
    expect(resultJson(await adapter.invoke("echo", { n: 2 }))).toEqual({ n: 2 });
  });

  // The stdio transport answers the dropped response with JSON-RPC error -32050 (data.reason MESSAGE_TOO_LARGE).
  it("a 20 MB result over the transport's limit is classified result_too_large", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    expect((await adapter.invoke("huge", { mb: 20 })).errorKind).toBe("result_too_large");
  });

  it("a 20 MB result over the transport's limit is a classified failure, not a crash", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const result = await adapter.invoke("huge", { mb: 20 });
    expect(result.success).toBe(false);
    expect(result.errorKind).toBe("result_too_large");
    expect(result.error).toMatch(/maxMessageBytes/);
    expect(resultJson(await adapter.invoke("echo", { after: "huge" }))).toEqual({ after: "huge" });
  });

  it("__proto__ and constructor keys in results pollute nothing", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "hostile");
    for (const placement of ["top", "nested"]) {
      const direct = await adapter.invoke("proto", { placement });
      const viaRegistry = await registry.call("hostile/proto", { placement });
      for (const outcome of [direct, viaRegistry]) {
        // Either answer is acceptable; what matters is that nothing leaked into prototypes.
        expect(typeof outcome.success).toBe("boolean");
        const structured = (outcome.data as { structuredContent?: Record<string, unknown> } | undefined)
          ?.structuredContent;
        if (structured !== undefined) {
          expect(structured.polluted).toBeUndefined();
          expect(Object.getPrototypeOf(structured)).toBe(Object.prototype);
        }
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
  });

  it("a tool error and a JSON-RPC error are server_error results with the server's message", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const toolError = await adapter.invoke("error");
    expect(toolError).toMatchObject({ success: false, errorKind: "server_error" });
    expect(toolError.error).toMatch(/server error.*the tool failed as asked/);
    const rpcError = await adapter.invoke("throw");
    expect(rpcError).toMatchObject({ success: false, errorKind: "server_error" });
    expect(rpcError.error).toMatch(/server error.*the call failed as asked/);
  });

  it("a server that starts a grandchild and exits mid-session leaves nothing behind", async () => {
    const adapter = hostileAdapter();
    await connectWatched(adapter);
    const { grandchildPid } = resultJson(await adapter.invoke("spawn-grandchild-and-exit")) as {
      grandchildPid: number;
    };
    expect(await waitUntilGone(grandchildPid)).toBe(true);
    const deadline = Date.now() + 30_000;
    while (adapter.isConnected && Date.now() < deadline) await sleep(25);
    expect(adapter.isConnected).toBe(false);
  });
});

describe("hostile server: hostile listings", () => {
  it("follows 25 pages of a 2,500-tool listing", async () => {
    const adapter = hostileAdapter({ tools: 2500, pageSize: 100 });
    await connectWatched(adapter);
    const tools = await adapter.discoverTools();
    expect(tools).toHaveLength(2500);
    expect(new Set(tools.map((t) => t.name)).size).toBe(2500);
  });

  it("hostile tool names are skipped with reasons; nothing is polluted or shadowed", async () => {
    const warnings: string[] = [];
    const adapter = hostileAdapter({ badNames: true }, { logger: { warn: (message) => warnings.push(message) } });
    await connectWatched(adapter);
    const registry = new ToolRegistry();
    const report = await adapter.registerTools(registry, "hostile");
    // The nameless tool is dropped at discovery, with a warning, before registration sees it.
    expect(adapter.discoveredTools.map((t) => t.name)).not.toContain("");
    expect(warnings.join("\n")).toMatch(/without a name/);
    const skipped = new Map(report.skipped.map((s) => [s.name, s.reason]));
    for (const bad of [
      "../x",
      "a/b",
      "n".repeat(10 * 1024),
      "tab\there",
      "new\nline",
      "nul\u0000byte",
      "esc\u001b[2J",
    ]) {
      expect(skipped.get(bad), `reason for skipping ${JSON.stringify(bad.slice(0, 20))}`).toMatch(/\w+/);
    }
    expect(report.registered.sort()).toEqual(["hostile/__proto__", "hostile/constructor", "hostile/ok_tool"]);
    expect(registry.size).toBe(3);
    // Inherited names are not tools, and the odd own names are ordinary entries.
    for (const inherited of ["toString", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
      expect(registry.has(`hostile/${inherited}`)).toBe(false);
      expect(registry.get(`hostile/${inherited}`)).toBeUndefined();
    }
    expect(registry.get("hostile/__proto__")?.localName).toBe("__proto__");
    expect(registry.get("hostile/constructor")?.localName).toBe("constructor");
    const viaRegistry = await registry.call("hostile/__proto__", { a: 1 });
    expect(viaRegistry.success).toBe(true);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    // A skipped name is not reachable another way.
    expect(registry.has("hostile/a/b")).toBe(false);
    expect(
      registry
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(report.registered.sort());
  });

  it("hostile input schemas give classified verdicts and fetch nothing", async () => {
    const adapter = hostileAdapter({ badSchemas: true });
    await connectWatched(adapter);
    const networkBefore = networkActivity.length;
    await adapter.discoverTools();

    const remote = await adapter.invoke("remote_ref", { value: 1 });
    expect(remote).toMatchObject({ success: false, errorKind: "validation" });
    expect(remote.error).toMatch(/example\.invalid|\$ref|resolve/i);

    const loop = await adapter.invoke("ref_loop", { value: 1 });
    expect(loop.success || loop.errorKind === "validation").toBe(true);

    const invalid = await adapter.invoke("invalid_schema", { value: 1 });
    expect(invalid).toMatchObject({ success: false, errorKind: "validation" });

    const tree = { root: { value: "a", next: { value: "b", next: { value: "c" } } } };
    expect((await adapter.invoke("recursive_ref", tree)).error).toBeNull();
    const badTree = await adapter.invoke("recursive_ref", { root: { value: "a", next: { value: 5 } } });
    expect(badTree).toMatchObject({ success: false, errorKind: "validation" });

    expect(resultJson(await adapter.invoke("ok_tool", { value: "fine" }))).toEqual({ value: "fine" });
    expect(networkActivity.slice(networkBefore)).toEqual([]);
  });
});
