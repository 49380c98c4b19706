import * as assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { ToolRegistry, type RegisteredTool } from "mcp-tool-adapter";
import type { AdapterWorld } from "../support/world.js";

Given("an empty MCP tool registry", function (this: AdapterWorld) {
  this.registry = new ToolRegistry();
});

When(
  /^I (?:re-)?register MCP tools in the registry with namespace "([^"]*)"$/,
  async function (this: AdapterWorld, namespace: string) {
    this.lastRegistration = await this.requireAdapter().registerTools(this.requireRegistry(), namespace);
  },
);

When("the MCP server adds a new tool {string}", async function (this: AdapterWorld, name: string) {
  await this.requireServer().addTool({
    name,
    description: `Mock tool ${name} added at run time`,
    inputSchema: { type: "object" },
  });
});

Then("the registry should have {int} tools", function (this: AdapterWorld, count: number) {
  const registry = this.requireRegistry();
  assert.equal(registry.size, count, `Registered: ${JSON.stringify(registry.list().map((t) => t.name))}`);
});

Then(
  "registry tool {int} name should start with {string}",
  function (this: AdapterWorld, index: number, prefix: string) {
    const tool = this.requireRegistry().list()[index];
    assert.ok(tool !== undefined, `No registry tool at index ${index}`);
    assert.ok(tool.name.startsWith(prefix), `"${tool.name}" does not start with "${prefix}"`);
  },
);

Then("calling registry tool {string} should succeed", async function (this: AdapterWorld, name: string) {
  const result = await this.requireRegistry().call(name, {});
  this.lastRegistryResult = result;
  assert.equal(result.success, true, `Registry call failed: ${String(result.error)}`);
});

Then("calling registry tool {string} should return an error", async function (this: AdapterWorld, name: string) {
  const result = await this.requireRegistry().call(name, {});
  this.lastRegistryResult = result;
  assert.equal(result.success, false, `Registry call unexpectedly succeeded: ${JSON.stringify(result.data)}`);
  assert.ok(
    typeof result.error === "string" && result.error.length > 0,
    "The failed registry call carries no error message",
  );
});

Then("registry tool {string} should have read_only capability", function (this: AdapterWorld, name: string) {
  const { capabilities } = registeredTool(this, name);
  assert.equal(capabilities.readOnly, true, JSON.stringify(capabilities));
  assert.equal(capabilities.writes, false, JSON.stringify(capabilities));
});

Then("registry tool {string} should have writes capability", function (this: AdapterWorld, name: string) {
  const { capabilities } = registeredTool(this, name);
  assert.equal(capabilities.writes, true, JSON.stringify(capabilities));
  assert.equal(capabilities.readOnly, false, JSON.stringify(capabilities));
});

Then("registry tool {string} should have source {string}", function (this: AdapterWorld, name: string, source: string) {
  const tool = registeredTool(this, name);
  assert.equal(tool.source, source);
  assert.equal(tool.sourceMetadata.server, this.requireAdapter().serverName);
});

Then(
  "registry tool {string} should have checkpointable {word}",
  function (this: AdapterWorld, name: string, flag: string) {
    assert.ok(flag === "true" || flag === "false", `checkpointable must be true or false, got ${flag}`);
    assert.equal(registeredTool(this, name).checkpointable, flag === "true");
  },
);

function registeredTool(world: AdapterWorld, name: string): RegisteredTool {
  const registry = world.requireRegistry();
  const tool = registry.get(name);
  assert.ok(
    tool !== undefined,
    `"${name}" is not registered; registered: ${JSON.stringify(registry.list().map((t) => t.name))}`,
  );
  return tool;
}
