import * as assert from "node:assert/strict";
import { Given, Then, When } from "@cucumber/cucumber";
import { withCallFault, withCallResultRewrite } from "@mcp-tool-adapter/test-servers";
import { assertMentions, captureError, parseArguments } from "../support/assertions.js";
import {
  bareListTool,
  callableTool,
  createMockAdapter,
  failingTool,
  neverAnsweringTool,
  schemaValidatedTool,
} from "../support/mock-servers.js";
import type { AdapterWorld } from "../support/world.js";

// slow_tool never answers, so any deadline is missed; a short one keeps the suite fast.
const TIMEOUT_SCENARIO_MS = 100;
const BARE_LIST_TIMEOUT_MS = 5_000;

Given("a connected MCP adapter with a callable mock tool {string}", async function (this: AdapterWorld, name: string) {
  await createMockAdapter(this, { tools: [callableTool(name)], connect: true });
});

Given(
  "a connected MCP adapter with a schema-validated mock tool {string}",
  async function (this: AdapterWorld, name: string) {
    await createMockAdapter(this, { tools: [schemaValidatedTool(name)], connect: true });
  },
);

Given("a connected MCP adapter with a failing mock tool {string}", async function (this: AdapterWorld, name: string) {
  await createMockAdapter(this, { tools: [failingTool(name)], connect: true });
});

Given(
  "a connected MCP adapter with a raw list-content mock tool {string}",
  async function (this: AdapterWorld, name: string) {
    // The JSON-RPC result itself is the content list, as MCP 1.4.0-era servers answered.
    await createMockAdapter(this, { tools: [bareListTool(name)], connect: true });
    // A client that could not read such an answer would wait for it: fail in seconds, not 60.
    this.invokeDefaults = { timeoutMs: BARE_LIST_TIMEOUT_MS };
  },
);

Given(
  "a connected MCP adapter with a transport-error mock tool {string}",
  async function (this: AdapterWorld, name: string) {
    // The transport itself throws while sending this tool's call: a generic, non-MCP failure.
    await createMockAdapter(this, {
      tools: [callableTool(name)],
      transport: (server) => async () => withCallFault(await server.connect(), { tool: name }),
      connect: true,
    });
  },
);

Given(
  "a connected MCP adapter with a tool whose connection drops mid-call {string}",
  async function (this: AdapterWorld, name: string) {
    await createMockAdapter(this, {
      tools: [callableTool(name)],
      transport: (server) => async () => withCallFault(await server.connect(), { tool: name, mode: "disconnect" }),
      connect: true,
    });
  },
);

Given(
  "a connected MCP adapter with a mock tool {string} answering in the toolResult shape",
  async function (this: AdapterWorld, name: string) {
    await createMockAdapter(this, {
      tools: [callableTool(name)],
      transport: (server) => async () =>
        withCallResultRewrite(await server.connect(), { tool: name, rewrite: () => ({ toolResult: "legacy answer" }) }),
      connect: true,
    });
  },
);

Given("a connected MCP adapter with a tool that times out", async function (this: AdapterWorld) {
  await createMockAdapter(this, { tools: [neverAnsweringTool("slow_tool")], connect: true });
  this.invokeDefaults = { timeoutMs: TIMEOUT_SCENARIO_MS };
});

When(/^I invoke "([^"]*)" with arguments (\{.*\})$/, async function (this: AdapterWorld, name: string, json: string) {
  this.lastResult = await this.requireAdapter().invoke(name, parseArguments(json), this.invokeDefaults);
});

When("I invoke MCP tool {string} while disconnected", async function (this: AdapterWorld, name: string) {
  const adapter = this.requireAdapter();
  this.lastError = await captureError(() => adapter.invoke(name, {}));
});

Then("the invocation should succeed", function (this: AdapterWorld) {
  const result = this.requireResult();
  assert.equal(result.success, true, `Invocation failed: ${String(result.error)}`);
  assert.equal(result.error, null);
  assert.ok(result.durationMs >= 0, `durationMs: ${result.durationMs}`);
});

Then("the invocation should fail", function (this: AdapterWorld) {
  const result = this.requireResult();
  assert.equal(result.success, false, `Invocation unexpectedly succeeded: ${JSON.stringify(result.data)}`);
  assert.equal(typeof result.error, "string");
});

Then("the invocation error kind should be {string}", function (this: AdapterWorld, kind: string) {
  const result = this.requireResult();
  assert.equal(result.errorKind, kind, `error: ${String(result.error)}`);
});

Then("the invocation error should mention {string}", function (this: AdapterWorld, text: string) {
  assertMentions(this.requireResult().error, text, "the invocation error");
});

Then(
  /^the invocation result (?:data )?should (?:contain|have) key "([^"]*)"$/,
  function (this: AdapterWorld, key: string) {
    const data = this.requireResult().data;
    assert.ok(data !== null && typeof data === "object", `Result data is not an object: ${JSON.stringify(data)}`);
    assert.ok(key in data, `Result data has no key "${key}": ${JSON.stringify(data)}`);
  },
);

Then("the invocation result content should be a list", function (this: AdapterWorld) {
  const content = this.requireResult().data?.content;
  assert.ok(Array.isArray(content), `content is not a list: ${JSON.stringify(content)}`);
  assert.ok(content.length > 0, "content is an empty list");
});

Then("the invocation result content list should have {int} item(s)", function (this: AdapterWorld, count: number) {
  const content = this.requireResult().data?.content;
  assert.ok(Array.isArray(content), `content is not a list: ${JSON.stringify(content)}`);
  assert.equal(content.length, count, JSON.stringify(content));
});
