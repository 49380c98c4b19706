import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { appsStdioServer, everythingStdioServer, type StdioLaunchConfig } from "@mcp-tool-adapter/test-servers";
import { ToolRegistry, toolUiOf } from "@mcp-tool-adapter/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPToolAdapter } from "../src/index.js";

// MCP Apps against the published example servers, over real stdio pipes.
const adapters: MCPToolAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.disconnect()));
});

async function connected(name: string, launch: StdioLaunchConfig): Promise<MCPToolAdapter> {
  const adapter = new MCPToolAdapter(
    { name, transport: "stdio", command: launch.command, args: launch.args },
    { transport: () => new StdioClientTransport({ command: launch.command, args: launch.args, stderr: "ignore" }) },
  );
  adapters.push(adapter);
  await adapter.connect({ timeoutMs: 30_000 });
  await adapter.discoverTools();
  return adapter;
}

describe("MCP Apps tool UI", { timeout: 60_000 }, () => {
  it("carries a tool's UI reference into its descriptor and the registry", async () => {
    const adapter = await connected("basic", appsStdioServer("basic-vanillajs"));
    const tool = adapter.discoveredTools.find((candidate) => candidate.name === "get-time");
    expect(tool?.ui).toEqual({ resourceUri: "ui://get-time/mcp-app.html", visibility: ["model", "app"] });
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "basic");
    expect(toolUiOf(registry.get("basic/get-time")!)).toEqual(tool?.ui);
  });

  it("reads the UI resource once per URI, as HTML, and refuses one over maxBytes", async () => {
    const adapter = await connected("basic", appsStdioServer("basic-vanillajs"));
    const reads = vi.spyOn(adapter, "readResource");
    const first = await adapter.readToolUi("get-time");
    expect(first.success).toBe(true);
    expect(first.data).toMatchObject({ toolName: "get-time", uri: "ui://get-time/mcp-app.html" });
    expect(first.data?.mimeType).toMatch(/^text\/html/);
    expect(first.data?.html).toContain('id="get-time-btn"');
    expect(first.data?.bytes).toBeGreaterThan(first.data!.html.length / 2);
    const again = await adapter.readToolUi("get-time");
    expect(again.data?.html).toBe(first.data?.html);
    expect(reads).toHaveBeenCalledTimes(1);
    const tooLarge = await adapter.readToolUi("get-time", { maxBytes: 1_000 });
    expect(tooLarge).toMatchObject({ success: false, errorKind: "result_too_large" });
    expect(tooLarge.error).toMatch(/ui:\/\/get-time\/mcp-app\.html.*maxBytes \(1000\)/);
    await adapter.readToolUi("get-time", { refresh: true });
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it("reads the extension's legacy flat resource key (budget-allocator)", async () => {
    const adapter = await connected("budget", appsStdioServer("budget-allocator"));
    const tool = adapter.discoveredTools.find((candidate) => candidate.name === "get-budget-data");
    expect(tool?.ui?.resourceUri).toMatch(/^ui:\/\//);
    const read = await adapter.readToolUi("get-budget-data");
    expect(read.data?.html).toContain("<html");
  });

  it("keeps a tool meant for the app alone, marked so (system-monitor)", async () => {
    const adapter = await connected("monitor", appsStdioServer("system-monitor"));
    const poll = adapter.discoveredTools.find((candidate) => candidate.name === "poll-system-stats");
    expect(poll?.ui?.visibility).toEqual(["app"]);
    const read = await adapter.readToolUi("poll-system-stats");
    expect(read).toMatchObject({ success: false, errorKind: "not_found" });
    expect(read.error).toContain('"poll-system-stats" declares no UI resource');
  });

  it("leaves a server without apps as it was", async () => {
    const adapter = await connected("everything", everythingStdioServer());
    expect(adapter.discoveredTools.length).toBeGreaterThan(5);
    expect(adapter.discoveredTools.every((tool) => tool.ui === undefined)).toBe(true);
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "everything");
    expect(registry.list().every((tool) => !("ui" in tool.sourceMetadata))).toBe(true);
    expect(await adapter.readToolUi("echo")).toMatchObject({ success: false, errorKind: "not_found" });
    expect(await adapter.readToolUi("no-such-tool")).toMatchObject({ success: false, errorKind: "not_found" });
  });
});
