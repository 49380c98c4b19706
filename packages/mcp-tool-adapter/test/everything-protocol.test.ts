import { EVERYTHING_TARGETS, expectNoLeakedProcesses, type RunningEverything } from "@mcp-tool-adapter/test-servers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResourceUpdatedEvent } from "@mcp-tool-adapter/adapter";
import { MCPToolAdapter, type MCPServerLogEntry } from "../src/index.js";

// Resources, prompts, completions and logging of the real server-everything. The tools called
// here only toggle its simulated notifications; never get-env nor gzip-file-as-resource.

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(EVERYTHING_TARGETS)("server-everything resources, prompts and logs over $label", (target) => {
  let running: RunningEverything;
  let adapter: MCPToolAdapter;
  const logs: MCPServerLogEntry[] = [];
  const loggerLines: string[] = [];

  beforeAll(async () => {
    running = await target.start();
    adapter = new MCPToolAdapter(running.config, {
      connectTimeoutMs: 20_000,
      logLevel: "debug",
      onLog: (entry) => logs.push(entry),
      logger: {
        info: (message) => loggerLines.push(message),
        warn: (message) => loggerLines.push(message),
        error: (message) => loggerLines.push(message),
        debug: (message) => loggerLines.push(message),
      },
    });
    await adapter.connect();
  });

  afterAll(async () => {
    await adapter.disconnect();
    await running.stop();
    await expectNoLeakedProcesses();
  });

  it("lists its static resources and its two templates", async () => {
    const resources = await adapter.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.uri.startsWith("demo://resource/static/document/"))).toBe(true);
    const templates = await adapter.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate).sort()).toEqual([
      "demo://resource/dynamic/blob/{resourceId}",
      "demo://resource/dynamic/text/{resourceId}",
    ]);
  });

  it("reads a static resource, a text template and a blob template", async () => {
    const [first] = await adapter.listResources();
    const document = await adapter.readResource(first!.uri);
    expect(document.success).toBe(true);
    expect((document.data!.contents[0] as { text: string }).text.length).toBeGreaterThan(0);
    const text = await adapter.readResource("demo://resource/dynamic/text/7");
    expect((text.data!.contents[0] as { text: string }).text).toMatch(/^Resource 7: This is a plaintext resource/);
    const blob = await adapter.readResource("demo://resource/dynamic/blob/7");
    expect(Buffer.from((blob.data!.contents[0] as { blob: string }).blob, "base64").toString()).toMatch(
      /^Resource 7: This is a base64 blob/,
    );
    const missing = await adapter.readResource("demo://resource/dynamic/text/0");
    expect(missing.success).toBe(false);
    expect(missing.error).toContain("Unknown resource");
  });

  it("lists prompts with their arguments and gets one after checking the arguments", async () => {
    const prompts = await adapter.listPrompts();
    const args = prompts.find((p) => p.name === "args-prompt");
    expect(args?.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
      ["city", true],
      ["state", false],
    ]);
    const got = await adapter.getPrompt("args-prompt", { city: "Lyon", state: "Rhône" });
    expect(got.data?.messages[0]?.content).toEqual({ type: "text", text: "What's weather in Lyon, Rhône?" });
    const missing = await adapter.getPrompt("args-prompt", { state: "Rhône" });
    expect(missing).toMatchObject({ success: false, errorKind: "validation" });
  });

  it("completes prompt arguments (with context) and template variables", async () => {
    const department = await adapter.complete(
      { type: "ref/prompt", name: "completable-prompt" },
      { name: "department", value: "S" },
    );
    expect(department.data?.values).toEqual(["Sales", "Support"]);
    const name = await adapter.complete(
      { type: "ref/prompt", name: "completable-prompt" },
      { name: "name", value: "" },
      { context: { department: "Engineering" } },
    );
    expect(name.data?.values).toEqual(["Alice", "Bob", "Charlie"]);
    const id = await adapter.complete(
      { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      { name: "resourceId", value: "12" },
    );
    expect(id.data?.values).toEqual(["12"]);
  });

  it("subscribes to a resource and receives its updates, then unsubscribes", async () => {
    const updates: ResourceUpdatedEvent[] = [];
    const uri = "demo://resource/dynamic/text/1";
    const subscription = await adapter.subscribeResource(uri, (event) => updates.push(event));
    expect(subscription.success).toBe(true);
    // The server acknowledges a subscribe with an info log message.
    await until(() => logs.some((entry) => String(entry.data).includes(`Subscribe Resource request for URI: ${uri}`)));
    expect((await adapter.invoke("toggle-subscriber-updates", {})).success).toBe(true);
    await until(() => updates.length > 0);
    expect(updates[0]).toEqual({ serverName: "everything", uri });
    expect((await adapter.invoke("toggle-subscriber-updates", {})).success).toBe(true);
    expect((await subscription.data!.unsubscribe()).success).toBe(true);
  });

  it("forwards the server's log messages to onLog and the logger, tagged with its name", async () => {
    const before = logs.length;
    expect((await adapter.invoke("toggle-simulated-logging", {})).success).toBe(true);
    await until(() => logs.slice(before).some((entry) => /-level message|level-message/.test(String(entry.data))));
    expect((await adapter.invoke("toggle-simulated-logging", {})).success).toBe(true);
    const entry = logs.slice(before).find((e) => /level/.test(String(e.data)))!;
    expect(entry.serverName).toBe("everything");
    expect(loggerLines.some((line) => line.startsWith(`MCP server "everything" ${entry.level}`))).toBe(true);
    expect((await adapter.setLogLevel("emergency")).success).toBe(true);
  });
});
