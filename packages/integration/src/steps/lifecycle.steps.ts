import * as assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import {
  createHangingTransport,
  createRefusingTransport,
  failAfterConnects,
  withCloseError,
} from "@mcp-tool-adapter/test-servers";
import { MCPToolAdapter } from "mcp-tool-adapter";
import { assertMentions, captureError } from "../support/assertions.js";
import { adapterOptionsOn } from "../support/engine.js";
import { createMockAdapter, numberedTools } from "../support/mock-servers.js";
import type { AdapterWorld } from "../support/world.js";

// --- adapters over a mock transport -------------------------------------------------------

Given("an MCP adapter with a mock transport", async function (this: AdapterWorld) {
  await createMockAdapter(this, { tools: numberedTools(1) });
});

Given("a connected MCP adapter with a mock transport", async function (this: AdapterWorld) {
  await createMockAdapter(this, { tools: numberedTools(1), connect: true });
});

Given("an MCP adapter with a transport that fails to connect", async function (this: AdapterWorld) {
  await createMockAdapter(this, { transport: () => () => createRefusingTransport() });
});

Given("an MCP adapter with a transport that hangs on connect", async function (this: AdapterWorld) {
  // start() never resolves: only the adapter's own connect timeout can end the attempt.
  await createMockAdapter(this, { transport: () => () => createHangingTransport("start") });
});

Given("an MCP adapter with a transport that never answers initialize", async function (this: AdapterWorld) {
  await createMockAdapter(this, { transport: () => () => createHangingTransport("initialize") });
});

Given("a connected MCP adapter with a transport that errors on close", async function (this: AdapterWorld) {
  await createMockAdapter(this, {
    tools: numberedTools(1),
    transport: (server) => async () => withCloseError(await server.connect()),
    connect: true,
  });
});

Given("a connected MCP adapter with a transport that fails to reconnect", async function (this: AdapterWorld) {
  await createMockAdapter(this, {
    tools: numberedTools(1),
    transport: (server) => failAfterConnects(() => server.connect(), 1),
    connect: true,
  });
});

// --- creating an adapter from a config ------------------------------------------------------

When("I create an MCP adapter from the config", function (this: AdapterWorld) {
  const adapter = new MCPToolAdapter(this.requireConfig(), adapterOptionsOn(this.engine));
  this.onCleanup(() => adapter.disconnect());
  this.adapter = adapter;
});

When("I create an MCP adapter from the config expecting validation error", async function (this: AdapterWorld) {
  const config = this.requireConfig();
  this.lastError = await captureError(() => new MCPToolAdapter(config, adapterOptionsOn(this.engine)));
});

// --- connect / disconnect / reconnect -------------------------------------------------------

When("I connect the adapter", async function (this: AdapterWorld) {
  await this.requireAdapter().connect();
});

When("I connect the adapter expecting error", async function (this: AdapterWorld) {
  const adapter = this.requireAdapter();
  this.lastError = await captureError(() => adapter.connect());
});

When(
  "I connect the adapter with timeout {float} expecting error",
  async function (this: AdapterWorld, seconds: number) {
    const adapter = this.requireAdapter();
    this.lastError = await captureError(() => adapter.connect({ timeoutMs: seconds * 1000 }));
  },
);

When("I disconnect the adapter", async function (this: AdapterWorld) {
  await this.requireAdapter().disconnect();
});

When("I reconnect the adapter", async function (this: AdapterWorld) {
  await this.requireAdapter().reconnect();
});

When("I reconnect the adapter expecting error", async function (this: AdapterWorld) {
  const adapter = this.requireAdapter();
  this.lastError = await captureError(() => adapter.reconnect());
});

// --- what the adapter reports ---------------------------------------------------------------

Then("the adapter server name should be {string}", function (this: AdapterWorld, name: string) {
  assert.equal(this.requireAdapter().serverName, name);
});

Then("the adapter transport should be {string}", function (this: AdapterWorld, transport: string) {
  assert.equal(this.requireAdapter().transportType, transport);
});

Then("the adapter should be connected", function (this: AdapterWorld) {
  assert.equal(this.requireAdapter().isConnected, true);
});

Then("the adapter should not be connected", function (this: AdapterWorld) {
  assert.equal(this.requireAdapter().isConnected, false);
});

Then("the adapter server capabilities should be set", function (this: AdapterWorld) {
  const capabilities = this.requireAdapter().serverCapabilities;
  assert.ok(capabilities !== undefined, "Expected serverCapabilities after the handshake");
  // The mock server announces tools support; the adapter must pass on what the server said.
  assert.ok(capabilities.tools !== undefined, `Expected the tools capability, got ${JSON.stringify(capabilities)}`);
});

Then("the adapter error should mention {string}", function (this: AdapterWorld, text: string) {
  assertMentions(this.requireError().message, text, "the adapter error");
});

Given("an MCP adapter whose first connection attempt is refused", async function (this: AdapterWorld) {
  await createMockAdapter(this, {
    tools: numberedTools(1),
    transport: (server) => {
      let attempts = 0;
      return () => (++attempts === 1 ? createRefusingTransport() : server.connect());
    },
  });
});
