import { MCPToolAdapter } from "@mcp-tool-adapter/adapter";
import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { appsStdioServer, everythingStdioServer, type StdioLaunchConfig } from "@mcp-tool-adapter/test-servers";
import { createStdioTransport } from "@mcp-tool-adapter/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelToolSet } from "../src/index.js";

// MCP Apps: a tool its server meant for the app alone (system-monitor's poll-system-stats) is
// registered (the app calls it through the registry) but never reaches a model's tool list.
const registry = new ToolRegistry();
const adapters: MCPToolAdapter[] = [];

async function register(namespace: string, launch: StdioLaunchConfig): Promise<void> {
  const adapter = new MCPToolAdapter(
    { name: namespace, transport: "stdio", command: launch.command, args: launch.args },
    { transport: (config) => createStdioTransport(config as Parameters<typeof createStdioTransport>[0]) },
  );
  adapters.push(adapter);
  await adapter.connect({ timeoutMs: 30_000 });
  await adapter.registerTools(registry, namespace);
}

beforeAll(async () => {
  await Promise.all([
    register("monitor", appsStdioServer("system-monitor")),
    register("basic", appsStdioServer("basic-vanillajs")),
    register("everything", everythingStdioServer()),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.disconnect()));
});

describe("app-only tools", () => {
  it("are in the registry but not in a model tool set", () => {
    expect(registry.get("monitor/poll-system-stats")).toBeDefined();
    const { tools } = createModelToolSet(registry);
    const names = tools.map((tool) => tool.registryName);
    expect(names).not.toContain("monitor/poll-system-stats");
    expect(names).toEqual(expect.arrayContaining(["monitor/get-system-info", "basic/get-time", "everything/echo"]));
  });

  it("leave model tools with a UI carrying it, and tools of a server without apps as they were", () => {
    const { tools } = createModelToolSet(registry);
    const getTime = tools.find((tool) => tool.registryName === "basic/get-time");
    expect(getTime?.ui).toEqual({ resourceUri: "ui://get-time/mcp-app.html", visibility: ["model", "app"] });
    const everything = tools.filter((tool) => tool.registryName.startsWith("everything/"));
    expect(everything.length).toBe(registry.list({ namespace: "everything" }).length);
    expect(everything.every((tool) => tool.ui === undefined)).toBe(true);
  });
});
