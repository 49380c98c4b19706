import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  everythingStdioServer,
  expectNoLeakedProcesses,
  startEverythingHttp,
  type EverythingHttpServer,
} from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioTransport } from "@mcp-tool-adapter/transport-stdio";
import {
  createDefaultTransport,
  MCPNotConnectedError,
  MCPToolAdapter,
  ToolRegistry,
  type MCPProgress,
  type MCPServerConfig,
} from "../src/index.js";

// Tools these tests may call. Never get-env (prints the environment) nor gzip-file-as-resource (fetches URLs).
const SAFE_TOOLS = ["echo", "get-sum", "get-structured-content", "trigger-long-running-operation", "get-tiny-image"];

interface Target {
  label: string;
  config: () => MCPServerConfig;
  start?: () => Promise<EverythingHttpServer>;
}

const targets: Target[] = [
  { label: "stdio", config: () => ({ name: "everything", transport: "stdio", ...everythingStdioServer() }) },
  {
    label: "sse",
    config: () => ({ name: "everything", transport: "sse", url: httpServers.sse!.url }),
    start: () => startEverythingHttp({ mode: "sse" }),
  },
  {
    label: "streamable-http",
    config: () => ({ name: "everything", transport: "streamable-http", url: httpServers["streamable-http"]!.url }),
    start: () => startEverythingHttp({ mode: "streamableHttp" }),
  },
];
const httpServers: Partial<Record<string, EverythingHttpServer>> = {};

describe.each(targets)("server-everything over $label", (target) => {
  let adapter: MCPToolAdapter;

  beforeAll(async () => {
    if (target.start) httpServers[target.label] = await target.start();
    adapter = new MCPToolAdapter(target.config(), { connectTimeoutMs: 20_000 });
    await adapter.connect();
  });

  afterAll(async () => {
    await adapter.disconnect();
    await httpServers[target.label]?.stop();
    await expectNoLeakedProcesses();
  });

  it("connects with the default transport and reports capabilities", () => {
    expect(adapter.isConnected).toBe(true);
    expect(adapter.serverCapabilities?.tools).toBeDefined();
    expect(adapter.serverInfo?.name).toBeTruthy();
  });

  it("discovers tools with an include filter of exact names and globs", async () => {
    const tools = await adapter.discoverTools({
      include: ["echo", "get-s*", "trigger-long-running-operation", "get-tiny-image"],
    });
    expect(tools.map((t) => t.name).sort()).toEqual([...SAFE_TOOLS].sort());
    const echo = tools.find((t) => t.name === "echo")!;
    expect(echo.inputSchema).toMatchObject({ type: "object", required: ["message"] });
    expect(echo.annotations?.readOnlyHint).toBe(true);
  });

  it("invokes tools and returns their content", async () => {
    const echo = await adapter.invoke("echo", { message: "hello e2e" });
    expect(echo.success).toBe(true);
    expect(JSON.stringify(echo.data?.content)).toContain("hello e2e");
    const sum = await adapter.invoke("get-sum", { a: 2, b: 40 });
    expect(sum.success).toBe(true);
    expect(JSON.stringify(sum.data?.content)).toContain("42");
    const image = await adapter.invoke("get-tiny-image", {});
    expect(image.data?.content.some((item) => (item as { type?: string }).type === "image")).toBe(true);
  });

  it("validates arguments locally before sending", async () => {
    const result = await adapter.invoke("get-sum", { a: "two", b: 3 });
    expect(result).toMatchObject({ success: false, errorKind: "validation" });
    expect(result.error).toContain("/a");
  });

  it("keeps and validates structuredContent", async () => {
    const result = await adapter.invoke("get-structured-content", { location: "Chicago" });
    expect(result.success).toBe(true);
    expect(result.data?.structuredContent).toMatchObject({ temperature: expect.any(Number) as number });
  });

  it("an unknown tool is not found, and the filter hid the tools it excluded", async () => {
    expect(await adapter.invoke("no-such-tool", {})).toMatchObject({ success: false, errorKind: "not_found" });
    expect(adapter.discoveredTools.map((t) => t.name)).not.toContain("get-env");
  });

  it("delivers progress notifications", async () => {
    const progress: MCPProgress[] = [];
    const result = await adapter.invoke(
      "trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { onProgress: (p) => progress.push(p), timeoutMs: 20_000 },
    );
    expect(result.success).toBe(true);
    // The last notification may race the result; the ones before it must have arrived in order.
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.slice(0, 2).map((p) => p.progress)).toEqual([1, 2]);
    expect(progress[0]!.total).toBe(3);
  });

  it("times out a long operation and stays usable", async () => {
    const result = await adapter.invoke(
      "trigger-long-running-operation",
      { duration: 30, steps: 3 },
      { timeoutMs: 200 },
    );
    expect(result).toMatchObject({ success: false, errorKind: "timeout" });
    expect(result.error).toMatch(/^timeout after 200 ms/);
    expect((await adapter.invoke("echo", { message: "still here" })).success).toBe(true);
  });

  it("registers tools in a registry and calls them through it", async () => {
    const registry = new ToolRegistry();
    const report = await adapter.registerTools(registry, "everything");
    expect(report.registered).toContain("everything/echo");
    expect(registry.get("everything/echo")).toMatchObject({
      source: "mcp",
      checkpointable: false,
      capabilities: { readOnly: true, writes: false },
    });
    expect(await registry.call("everything/echo", { message: "via registry" })).toMatchObject({ success: true });
  });

  it("reconnects with a fresh transport and an empty cache", async () => {
    await adapter.reconnect({ timeoutMs: 20_000 });
    expect(adapter.discoveredTools).toHaveLength(0);
    const echo = await adapter.invoke("echo", { message: "after reconnect" });
    expect(echo.success).toBe(true);
  });
});

describe("server-everything over stdio: the server process dies", () => {
  afterAll(async () => {
    await expectNoLeakedProcesses();
  });

  it("the adapter notices, throws not connected, and reconnect spawns a new server", async () => {
    const spawned: StdioTransport[] = [];
    const config: MCPServerConfig = { name: "everything", transport: "stdio", ...everythingStdioServer() };
    const adapter = new MCPToolAdapter(config, {
      logger: {},
      transport: async (c): Promise<Transport> => {
        const transport = await createDefaultTransport(c);
        if (!(transport instanceof StdioTransport)) throw new Error("expected a StdioTransport");
        spawned.push(transport);
        return transport;
      },
    });
    await adapter.connect({ timeoutMs: 20_000 });
    const slow = adapter.invoke("trigger-long-running-operation", { duration: 30, steps: 3 });
    const pid = spawned[0]!.pid!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    process.kill(pid, "SIGKILL");
    const result = await slow;
    expect(result).toMatchObject({ success: false, errorKind: "connection_lost" });
    expect(adapter.isConnected).toBe(false);
    await expect(adapter.invoke("echo", { message: "x" })).rejects.toThrow(MCPNotConnectedError);
    await adapter.reconnect({ timeoutMs: 20_000 });
    expect(spawned).toHaveLength(2);
    expect(spawned[1]!.pid).not.toBe(pid);
    expect((await adapter.invoke("echo", { message: "back" })).success).toBe(true);
    await adapter.disconnect();
  });
});
