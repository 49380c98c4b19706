import { ToolRegistry } from "@mcp-tool-adapter/registry";
import { describe, expect, it } from "vitest";
import { connectedHarness } from "./helpers.js";

describe("registerTools with resourceAndPromptTools", () => {
  it("registers read_resource and get_prompt as read-only tools that read and fill in prompts", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "echo" }],
      resources: [{ uri: "test://doc", name: "doc", text: "the text" }],
      prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }],
    });
    const registry = new ToolRegistry();
    const report = await adapter.registerTools(registry, "srv", { resourceAndPromptTools: true });
    expect(report.registered.sort()).toEqual(["srv/echo", "srv/get_prompt", "srv/read_resource"]);
    expect(registry.get("srv/read_resource")?.capabilities).toMatchObject({ readOnly: true, writes: false });
    const read = await registry.call("srv/read_resource", { uri: "test://doc" });
    expect(read).toMatchObject({ success: true, data: { contents: [{ uri: "test://doc", text: "the text" }] } });
    const missing = await registry.call("srv/read_resource", { uri: "test://nope" });
    expect(missing).toMatchObject({ success: false, errorKind: "not_found" });
    const prompt = await registry.call("srv/get_prompt", { name: "greet", arguments: { who: "Ada" } });
    expect(prompt.success).toBe(true);
    expect(await registry.call("srv/get_prompt", { name: "greet" })).toMatchObject({
      success: false,
      errorKind: "validation",
    });
  });

  it("registers neither without the option, nor for features the server lacks, and lets a server tool of the same name win", async () => {
    const { adapter } = await connectedHarness({
      tools: [{ name: "read_resource" }],
      resources: [{ uri: "test://doc", name: "doc" }],
    });
    const registry = new ToolRegistry();
    expect((await adapter.registerTools(registry, "plain")).registered).toEqual(["plain/read_resource"]);
    const report = await adapter.registerTools(registry, "srv", { resourceAndPromptTools: true });
    expect(report.registered).toEqual(["srv/read_resource"]);
    expect(report.skipped).toEqual([
      { name: "read_resource", reason: "the server has a tool of this name, which is registered instead" },
    ]);
    expect(registry.get("srv/read_resource")?.sourceMetadata).toMatchObject({ originalName: "read_resource" });
    expect(registry.has("srv/get_prompt")).toBe(false);
  });
});
