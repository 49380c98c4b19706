import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { inferCapabilities, MCPToolAdapter, type ToolsChangedEvent } from "../src/index.js";
import { connectedHarness, createHarness } from "./helpers.js";

describe("registerTools", () => {
  it("registers every tool as namespace/tool with provenance and checkpointable false", async () => {
    const { adapter } = await connectedHarness({
      tools: [
        { name: "list_repos" },
        { name: "create_issue", title: "Create", annotations: { destructiveHint: false } },
      ],
    });
    const registry = new ToolRegistry();
    const report = await adapter.registerTools(registry, "mcp-github");
    expect(report).toEqual({
      namespace: "mcp-github",
      registered: ["mcp-github/list_repos", "mcp-github/create_issue"],
      skipped: [],
      change: expect.objectContaining({ added: ["mcp-github/list_repos", "mcp-github/create_issue"] }) as unknown,
    });
    expect(registry.size).toBe(2);
    expect(registry.list()[0]!.name.startsWith("mcp-github/")).toBe(true);
    const listRepos = registry.get("mcp-github/list_repos")!;
    expect(listRepos).toMatchObject({
      source: "mcp",
      checkpointable: false,
      description: "Test tool list_repos",
      inputSchema: { type: "object" },
    });
    expect(listRepos.sourceMetadata).toMatchObject({ server: "test-server", originalName: "list_repos" });
    expect(listRepos.capabilities).toEqual({ readOnly: true, writes: false });
    const createIssue = registry.get("mcp-github/create_issue")!;
    expect(createIssue.capabilities).toMatchObject({ readOnly: false, writes: true, destructive: false });
    expect(createIssue.sourceMetadata).toMatchObject({ title: "Create", annotations: { destructiveHint: false } });
    await adapter.disconnect();
  });

  it("discovers first when nothing was discovered", async () => {
    const { adapter } = await connectedHarness({ tools: [{ name: "a" }, { name: "b" }] });
    await adapter.registerTools(new ToolRegistry(), "ns");
    expect(adapter.discoveredTools).toHaveLength(2);
    await adapter.disconnect();
  });

  it("throws not connected when there is nothing discovered and no connection", async () => {
    const { adapter } = createHarness({ tools: [{ name: "a" }] });
    await expect(adapter.registerTools(new ToolRegistry(), "ns")).rejects.toThrow(/not connected/);
  });

  it("registered tools are callable through the registry and return the tool's result", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "list_repos", handler: () => ({ content: [{ type: "text", text: "repo-a" }] }) }],
    });
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "mcp-github");
    const result = await registry.call("mcp-github/list_repos", {});
    expect(result).toMatchObject({ success: true, data: { content: [{ type: "text", text: "repo-a" }] } });
    await adapter.disconnect();
  });

  it("a failing tool gives an error result through the registry, never a throw", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "bad_tool", handler: () => ({ isError: true, content: [{ type: "text", text: "boom" }] }) }],
    });
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "mcp-fail");
    const result = await registry.call("mcp-fail/bad_tool", {});
    expect(result).toMatchObject({ success: false, error: "server error: boom", errorKind: "server_error" });
    await adapter.disconnect();
    const disconnected = await registry.call("mcp-fail/bad_tool", {});
    expect(disconnected.success).toBe(false);
    expect(disconnected.error).toContain("not connected");
  });

  it("passes the registry's abort signal through to the call", async () => {
    const { adapter } = await connectedHarness({
      tools: [
        {
          name: "slow",
          handler: (_a, extra) =>
            new Promise((resolve) => extra.signal.addEventListener("abort", () => resolve({ content: [] }))),
        },
      ],
    });
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "ns");
    const controller = new AbortController();
    const pending = registry.call("ns/slow", {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ success: false, errorKind: "cancelled" });
    await adapter.disconnect();
  });

  it("re-registering replaces the namespace atomically", async () => {
    const { adapter, server } = await connectedHarness({ tools: [{ name: "a" }, { name: "b" }] });
    const registry = new ToolRegistry();
    registry.register("other", {
      name: "x",
      description: "",
      inputSchema: {},
      capabilities: { readOnly: false, writes: false },
      source: "test",
      sourceMetadata: {},
      checkpointable: true,
      handler: () => ({ success: true }),
    });
    await adapter.registerTools(registry, "mcp-github");
    await server.addTool({ name: "deploy" });
    await adapter.discoverTools();
    const report = await adapter.registerTools(registry, "mcp-github");
    expect(registry.list({ namespace: "mcp-github" })).toHaveLength(3);
    expect(registry.size).toBe(4);
    expect(report.registered).toEqual(["mcp-github/a", "mcp-github/b", "mcp-github/deploy"]);
    // The list_changed refresh may already have registered "deploy"; either way nothing is removed.
    expect(report.change.removed).toEqual([]);
    await adapter.disconnect();
  });

  it("skips names the registry rejects and reports why", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "ok_tool" }, { name: "has/slash" }, { name: "has space" }, { name: ".." }],
    });
    const registry = new ToolRegistry();
    const report = await adapter.registerTools(registry, "ns");
    expect(report.registered).toEqual(["ns/ok_tool"]);
    expect(report.skipped.map((s) => s.name)).toEqual(["has/slash", "has space", ".."]);
    for (const skipped of report.skipped) expect(skipped.reason).toMatch(/name must not/);
    expect(registry.size).toBe(1);
    await adapter.disconnect();
  });

  it("applies capability overrides and a registration filter", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "get_user" }, { name: "run_pipeline" }, { name: "delete_branch" }],
    });
    const registry = new ToolRegistry();
    const report = await adapter.registerTools(registry, "ns", {
      filter: { exclude: ["delete_*"] },
      overrides: { run_pipeline: { writes: true } },
    });
    expect(report.registered).toEqual(["ns/get_user", "ns/run_pipeline"]);
    expect(registry.get("ns/run_pipeline")!.capabilities).toMatchObject({ writes: true, readOnly: false });
    expect(registry.get("ns/run_pipeline")!.sourceMetadata).toMatchObject({
      capabilitiesDecidedBy: { writes: "override" },
    });
    await adapter.disconnect();
  });

  it("registers with the adapter's capabilityOverrides; a registration's own override wins for its tool", async () => {
    const { adapter } = await connectedHarness(
      { tools: [{ name: "get_user" }, { name: "run_pipeline" }] },
      { capabilityOverrides: { get_user: { writes: true }, run_pipeline: { writes: true } } },
    );
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "ns", { overrides: { run_pipeline: { readOnly: true } } });
    expect(registry.get("ns/get_user")!.capabilities).toMatchObject({ writes: true, readOnly: false });
    expect(registry.get("ns/run_pipeline")!.capabilities).toMatchObject({ writes: false, readOnly: true });
    await adapter.disconnect();
  });

  it("keeps the namespace up to date when the server's tool list changes", async () => {
    const { adapter, server } = await connectedHarness({ tools: [{ name: "a" }, { name: "b" }] });
    const registry = new ToolRegistry();
    await adapter.registerTools(registry, "live");
    const event = new Promise<ToolsChangedEvent>((resolve) => adapter.onToolsChanged(resolve));
    await server.addTool({ name: "c" });
    const { added, registrations } = await event;
    expect(added).toEqual(["c"]);
    expect(registrations).toEqual([
      expect.objectContaining({
        namespace: "live",
        registered: ["live/a", "live/b", "live/c"],
        change: expect.objectContaining({ added: ["live/c"] }) as unknown,
      }),
    ]);
    expect(registry.list({ namespace: "live" }).map((t) => t.name)).toEqual(["live/a", "live/b", "live/c"]);
    expect((await registry.call("live/c", { q: 1 })).success).toBe(true);

    adapter.unregisterTools(registry, "live");
    expect(registry.size).toBe(0);
    const next = new Promise<ToolsChangedEvent>((resolve) => adapter.onToolsChanged(resolve));
    await server.addTool({ name: "d" });
    expect((await next).registrations).toEqual([]);
    expect(registry.size).toBe(0);
    await adapter.disconnect();
  });
});

describe("capability inference", () => {
  it.each([
    ["list_repos", true, false],
    ["create_issue", false, true],
    ["delete_branch", false, true],
    ["run_pipeline", false, false],
    ["get-user-details", true, false],
    ["search_and_update", false, true],
  ])("%s -> readOnly %s, writes %s", (name, readOnly, writes) => {
    expect(MCPToolAdapter.inferCapabilities(name)).toMatchObject({ readOnly, writes });
    expect(inferCapabilities(name)).toMatchObject({ readOnly, writes });
  });

  it("annotations and overrides take part when given", () => {
    expect(MCPToolAdapter.inferCapabilities("run_pipeline", { readOnlyHint: true })).toMatchObject({
      readOnly: true,
      writes: false,
    });
    expect(MCPToolAdapter.inferCapabilities("list_repos", undefined, { writes: true })).toMatchObject({
      readOnly: false,
      writes: true,
    });
  });
});
