import * as assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Given, Then, When } from "@cucumber/cucumber";
import { filesystemStdioServer, memoryStdioServer } from "@mcp-tool-adapter/test-servers";
import type { MCPToolResult } from "mcp-tool-adapter";
import { assertMentions, parseArguments } from "../support/assertions.js";
import { contentText } from "../support/content.js";
import { connectDefaultAdapter, connectEverything, makeTempDir, type RealTransport } from "../support/real-servers.js";
import type { AdapterWorld } from "../support/world.js";

// --- starting real servers ------------------------------------------------------------------

Given(
  /^a connected adapter to server-everything over (stdio|sse|streamable-http)$/,
  async function (this: AdapterWorld, transport: RealTransport) {
    await connectEverything(this, transport);
  },
);

Given(
  "a connected adapter to server-filesystem over stdio allowing a temporary directory",
  async function (this: AdapterWorld) {
    const dir = await makeTempDir(this, "fs");
    await connectDefaultAdapter(this, { name: "filesystem", transport: "stdio", ...filesystemStdioServer([dir]) });
  },
);

Given(
  "a connected adapter to server-memory over stdio with a temporary memory file",
  async function (this: AdapterWorld) {
    const dir = await makeTempDir(this, "memory");
    await connectDefaultAdapter(this, {
      name: "memory",
      transport: "stdio",
      ...memoryStdioServer(join(dir, "memory.jsonl")),
    });
  },
);

When("the server-everything server is restarted", async function (this: AdapterWorld) {
  assert.ok(this.realServer !== undefined, "No real server in this scenario to restart.");
  await this.realServer.restart();
});

// --- invoking with progress and deadlines ---------------------------------------------------

When(
  /^I invoke "([^"]*)" with arguments (\{.*\}) reporting progress$/,
  async function (this: AdapterWorld, name: string, json: string) {
    this.progress = [];
    this.lastResult = await this.requireAdapter().invoke(name, parseArguments(json), {
      onProgress: (update) => this.progress.push(update),
    });
  },
);

When(
  /^I invoke "([^"]*)" with arguments (\{.*\}) with a (\d+) ms timeout$/,
  async function (this: AdapterWorld, name: string, json: string, ms: string) {
    this.lastResult = await this.requireAdapter().invoke(name, parseArguments(json), { timeoutMs: Number(ms) });
  },
);

// The SDK hands notifications to their handler a microtask late but settles the response at
// once, so a final progress update that arrives together with the result can be dropped
// (SDK 1.32 Protocol._onnotification). Every earlier update must arrive, in order.
Then(
  "at least {int} progress updates should have been reported, rising towards a total of {int}",
  function (this: AdapterWorld, atLeast: number, total: number) {
    const seen = this.progress.map((p) => p.progress);
    assert.ok(seen.length >= atLeast && seen.length <= total, `progress updates: ${JSON.stringify(this.progress)}`);
    assert.deepEqual(
      seen,
      Array.from({ length: seen.length }, (_, i) => i + 1),
      `progress must rise one step at a time: ${JSON.stringify(seen)}`,
    );
    assert.ok(
      this.progress.every((p) => p.total === total),
      `every update names the total: ${JSON.stringify(this.progress)}`,
    );
  },
);

// --- what came back ---------------------------------------------------------------------------

Then(
  "the discovered tools should include {string}, {string} and {string}",
  function (this: AdapterWorld, a: string, b: string, c: string) {
    const names = this.requireAdapter().discoveredTools.map((tool) => tool.name);
    for (const name of [a, b, c]) assert.ok(names.includes(name), `"${name}" not among ${JSON.stringify(names)}`);
  },
);

Then("discovered tool {string} should have an output schema", function (this: AdapterWorld, name: string) {
  const tool = this.requireAdapter().discoveredTools.find((t) => t.name === name);
  assert.ok(tool !== undefined, `"${name}" was not discovered`);
  assert.equal(tool.outputSchema?.type, "object", `outputSchema: ${JSON.stringify(tool.outputSchema)}`);
});

Then("the invocation text should contain {string}", function (this: AdapterWorld, text: string) {
  const result: MCPToolResult = this.requireResult();
  assertMentions(contentText(result.data), text, "the invocation's text content");
});

Then(
  /^the structured content field "([^"]*)" should be (.+)$/,
  function (this: AdapterWorld, field: string, expectedJson: string) {
    const structured = this.requireResult().data?.structuredContent;
    assert.ok(
      typeof structured === "object" && structured !== null,
      `No structured content: ${JSON.stringify(this.requireResult().data)}`,
    );
    assert.deepEqual((structured as Record<string, unknown>)[field], JSON.parse(expectedJson));
  },
);

// --- calls through the registry -------------------------------------------------------------

When(
  /^I call registry tool "([^"]*)" with arguments (\{.*\})$/,
  async function (this: AdapterWorld, name: string, json: string) {
    // "$DIR" stands for the scenario's temporary directory (JSON-escaped, so any path works).
    const dir = this.tempDir === undefined ? undefined : JSON.stringify(this.tempDir).slice(1, -1);
    const expanded = dir === undefined ? json : json.replaceAll("$DIR", dir);
    this.lastRegistryResult = await this.requireRegistry().call(name, parseArguments(expanded));
  },
);

Then("the registry call should succeed", function (this: AdapterWorld) {
  const result = this.lastRegistryResult;
  assert.ok(result !== undefined, "No registry call yet");
  assert.equal(result.success, true, `Registry call failed: ${String(result.error)}`);
});

Then("the registry call should fail with error kind {string}", function (this: AdapterWorld, kind: string) {
  const result = this.lastRegistryResult;
  assert.ok(result !== undefined, "No registry call yet");
  assert.equal(result.success, false, `Registry call unexpectedly succeeded: ${JSON.stringify(result.data)}`);
  assert.equal(result.errorKind, kind, `error: ${String(result.error)}`);
});

Then("the registry call text should contain {string}", function (this: AdapterWorld, text: string) {
  assertMentions(contentText(this.lastRegistryResult?.data), text, "the registry call's text content");
});

Then("the registry call error should mention {string}", function (this: AdapterWorld, text: string) {
  assertMentions(this.lastRegistryResult?.error, text, "the registry call error");
});

Then("registry tool {string} should have destructive capability", function (this: AdapterWorld, name: string) {
  const tool = this.requireRegistry().get(name);
  assert.ok(tool !== undefined, `"${name}" is not registered`);
  assert.equal(tool.capabilities.destructive, true, JSON.stringify(tool.capabilities));
  assert.equal(tool.capabilities.writes, true, JSON.stringify(tool.capabilities));
});

// --- what the servers left on disk ------------------------------------------------------------

Then(
  "the file {string} in the temporary directory should contain {string}",
  async function (this: AdapterWorld, file: string, text: string) {
    assertMentions(await readFile(join(this.requireTempDir(), file), "utf8"), text, `file ${file}`);
  },
);

Then("the memory file should mention {string}", async function (this: AdapterWorld, text: string) {
  assertMentions(await readFile(join(this.requireTempDir(), "memory.jsonl"), "utf8"), text, "the memory file");
});
