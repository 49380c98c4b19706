import * as assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { captureError } from "../support/assertions.js";
import { createMockAdapter, numberedTools } from "../support/mock-servers.js";
import type { AdapterWorld } from "../support/world.js";

Given("a connected MCP adapter with {int} mock tools", async function (this: AdapterWorld, count: number) {
  await createMockAdapter(this, { tools: numberedTools(count), connect: true });
});

Given("a tool filter including only {string}", function (this: AdapterWorld, name: string) {
  this.filter = { include: [name] };
});

Given("a tool filter excluding {string}", function (this: AdapterWorld, name: string) {
  this.filter = { exclude: [name] };
});

When("I discover tools from the adapter", async function (this: AdapterWorld) {
  await this.requireAdapter().discoverTools();
});

When("I discover tools from the adapter with filter", async function (this: AdapterWorld) {
  assert.ok(this.filter !== undefined, "No filter: add a 'Given a tool filter ...' step.");
  await this.requireAdapter().discoverTools(this.filter);
});

When("I discover tools expecting an error", async function (this: AdapterWorld) {
  const adapter = this.requireAdapter();
  this.lastError = await captureError(() => adapter.discoverTools());
});

Then("the adapter should have {int} discovered tools", function (this: AdapterWorld, count: number) {
  const names = this.requireAdapter().discoveredTools.map((tool) => tool.name);
  assert.equal(names.length, count, `Discovered: ${JSON.stringify(names)}`);
});

Then("the adapter discovered_tools property should have {int} items", function (this: AdapterWorld, count: number) {
  assert.equal(this.requireAdapter().discoveredTools.length, count);
});

Then("discovered tool {int} should have a name", function (this: AdapterWorld, index: number) {
  const tool = this.requireAdapter().discoveredTools[index];
  assert.ok(tool !== undefined, `No discovered tool at index ${index}`);
  assert.equal(typeof tool.name, "string");
  assert.ok(tool.name.length > 0, "The discovered tool's name is empty");
});

Then("discovered tool {int} should have an input schema", function (this: AdapterWorld, index: number) {
  const tool = this.requireAdapter().discoveredTools[index];
  assert.ok(tool !== undefined, `No discovered tool at index ${index}`);
  assert.equal(tool.inputSchema.type, "object", `inputSchema: ${JSON.stringify(tool.inputSchema)}`);
});
